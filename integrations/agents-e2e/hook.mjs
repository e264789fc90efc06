#!/usr/bin/env node
// End-to-end check of `sysprompt hook` (issue #28's "Done when") in the real Claude Code, Codex,
// Gemini CLI and opencode of this folder, against the fake model, in the loopback-only namespace
// (harness.mjs). For each agent:
//   - its hook is installed from what `sysprompt export --agent NAME --hooks` prints (Claude Code:
//     ~/.claude/settings.json; Codex: ~/.codex/config.toml; Gemini CLI: the trusted project's
//     .gemini/settings.json; opencode: ~/.config/opencode/plugins/sysprompt.js);
//   - the fake model answers the first request with a tool call that reads pkg/sub/x.ts, the
//     second with one that reads pkg/sub/y.ts (the same folder), then "done";
//   - the request after the first read carries pkg/sub/AGENTS.md's text and the glob rule's text
//     exactly once (opencode: its read tool gives the AGENTS.md itself, sysprompt the rule), the
//     request after the second read carries nothing more, and the system prompt of both is the
//     same, byte for byte. Claude Code, like opencode, reads the nested AGENTS.md itself (its
//     preset says so, and the hook leaves it out): there too it must arrive exactly once.
//   - Gemini CLI, which writes the hook's `<` and `>` as `&lt;` and `&gt;` and cuts a shell
//     output past 40,000 characters with the hook's text in it: a read of a file ending inside
//     `<!--` brings nothing (its closer would close nothing), the next read brings the files; a
//     shell output of 7,900 characters with a 45 KB pkg/sub/AGENTS.md is not cut, and your own
//     glob rule arrives in it.
//
// Usage: node hook.mjs   (the repository built: `npm run build` at its root; `npm ci` here)
// AGENTS_E2E_ONLY=codex runs one agent; AGENTS_E2E_MODULES=DIR takes the agents from another
// checkout's node_modules; E2E_DEBUG=1 shows where each marker arrived; E2E_TIMEOUT_MS bounds a
// run. Exit 0 when every check passes, 1 otherwise.

import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createChecks } from "../_e2e/checks.mjs";
import { startFakeModel } from "../_e2e/fake-model.mjs";
import { inLoopbackNamespace, REPO, runAgent } from "./harness.mjs";

inLoopbackNamespace();

const CLI = join(REPO, "dist/src/cli/sysprompt.cjs");
const AGENTS = ["claude-code", "codex", "gemini-cli", "opencode"];
const ONLY = process.env.AGENTS_E2E_ONLY?.split(",") ?? AGENTS;
const MODULES = process.env.AGENTS_E2E_MODULES;
const NESTED = "E2E-HOOK-NESTED-AGENTS";
const RULE = "E2E-HOOK-GLOB-RULE";
const USER_RULE = "E2E-HOOK-USER-RULE";
const MODELS = {
  "claude-code": "claude-sonnet-4-5",
  codex: "gpt-5.5",
  "gemini-cli": "gemini-2.5-pro",
};

const { check, finish } = createChecks();

const TMP = mkdtempSync(join(tmpdir(), "agents-e2e-hook-"));

/** A git project: a nested AGENTS.md in pkg/sub and a Cursor rule for pkg's .ts files (`extra` added or replaced). */
function project(agent, extra = {}) {
  const root = join(TMP, agent, "project");
  const files = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "AGENTS.md": "# Project\n\nE2E-HOOK-ROOT: answer briefly.\n",
    "pkg/sub/AGENTS.md": `# pkg/sub\n\n${NESTED}: no default exports here.\n`,
    "pkg/sub/x.ts": "export const x = 1;\n",
    "pkg/sub/y.ts": "export const y = 2;\n",
    ".cursor/rules/ts.mdc": `---\nglobs: ["pkg/**/*.ts"]\n---\n${RULE}: TypeScript here is strict.\n`,
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** What `sysprompt export --agent NAME --hooks` prints, with a private HOME. */
function hooksSnippet(agent, home) {
  const run = spawnSync(process.execPath, [CLI, "export", "--agent", agent, "--hooks"], {
    env: { PATH: process.env.PATH, HOME: home },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`export --hooks for ${agent}: ${run.stderr}`);
  return run.stdout;
}

/** The tool calls that read x.ts then y.ts, in each agent's own tool names and arguments. */
function reads(agent, cwd) {
  const file = (name) => join(cwd, "pkg/sub", name);
  const call = {
    "claude-code": (f) => ({ name: "Read", arguments: { file_path: file(f) } }),
    codex: (f) => ({ name: "exec_command", arguments: { cmd: `cat pkg/sub/${f}` } }),
    "gemini-cli": (f) => ({ name: "read_file", arguments: { file_path: file(f) } }),
    opencode: (f) => ({ name: "read", arguments: { filePath: file(f) } }),
  }[agent];
  return [{ toolCall: call("x.ts") }, { toolCall: call("y.ts") }, { text: "done" }];
}

/** Installs the hook where the agent reads it, after the runner wrote its settings. */
function installer(agent, cwd, snippet) {
  return (home) => {
    const write = (path, text) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    };
    if (agent === "claude-code") write(join(home, ".claude/settings.json"), snippet);
    if (agent === "codex") appendFileSync(join(home, ".codex/config.toml"), `\n${snippet}`);
    if (agent === "gemini-cli") write(join(cwd, ".gemini/settings.json"), snippet);
    if (agent === "opencode") write(join(home, ".config/opencode/plugins/sysprompt.js"), snippet);
  };
}

/** The system prompt a request carries, as text, whatever the API. */
function systemOf(request) {
  const b = request.body ?? {};
  if (request.route === "anthropic") return JSON.stringify(b.system ?? null);
  if (request.route === "responses") return JSON.stringify(b.instructions ?? null);
  if (request.route?.startsWith("gemini")) return JSON.stringify(b.systemInstruction ?? null);
  return JSON.stringify((b.messages ?? []).filter((m) => m.role === "system"));
}

/** How often `marker` occurs in a request's conversation (its system prompt left out). */
function countIn(request, marker) {
  const b = { ...(request.body ?? {}) };
  for (const k of ["system", "instructions", "systemInstruction"]) delete b[k];
  if (Array.isArray(b.messages)) b.messages = b.messages.filter((m) => m.role !== "system");
  return JSON.stringify(b).split(marker).length - 1;
}

/** One Gemini CLI session (yolo) in a project with `extra` files, the fake model answering `script`: its turn requests. */
async function geminiSession(name, extra, script) {
  const cwd = project(name, extra);
  const home = join(TMP, name, "home");
  // Your own glob rule: your files come first in the hook's text.
  mkdirSync(join(home, ".pi/agent/rules"), { recursive: true });
  writeFileSync(
    join(home, ".pi/agent/rules/ts.md"),
    `---\nglobs: "**/*.ts"\n---\n${USER_RULE}: strict types.\n`,
  );
  const snippet = hooksSnippet("gemini-cli", home);
  const from = fake.requests.length;
  fake.script.push(...script(cwd));
  const run = await runAgent("gemini-cli", {
    port: fake.port,
    model: MODELS["gemini-cli"],
    cwd,
    home,
    message: "go",
    afterSetup: installer("gemini-cli", cwd, snippet),
    env: { SYSPROMPT_AGENT_DIR: join(home, ".pi/agent") },
    mode: "yolo",
    ...(MODULES ? { modules: MODULES } : {}),
  });
  fake.script.length = 0;
  const turns = fake.requests
    .slice(from)
    .filter((r) => r.route && r.route !== "count" && r.reply && r.body?.tools?.length);
  return { run, turns };
}

/** Gemini CLI's escaping of the hook's text and its cut of a shell output, in the real agent. */
async function geminiChecks() {
  const read = (cwd, f) => ({
    toolCall: { name: "read_file", arguments: { file_path: join(cwd, "pkg/sub", f) } },
  });
  const comment = await geminiSession(
    "gemini-comment",
    { "pkg/sub/z.ts": "export const z = 1;\n<!-- note\n" },
    (cwd) => [read(cwd, "z.ts"), read(cwd, "x.ts"), { text: "done" }],
  );
  const [, afterZ, afterX] = comment.turns;
  check(
    "gemini-cli: a read ending inside <!-- brings nothing (its closer would arrive as --&gt;); the next read brings the rule once",
    afterZ && afterX && countIn(afterZ, RULE) === 0 && countIn(afterX, RULE) === 1,
    `${comment.turns.length} turns; rule counts ${afterZ && countIn(afterZ, RULE)}, ${afterX && countIn(afterX, RULE)}\n${comment.run.stderr.slice(-1500)}`,
  );
  const big = `# pkg/sub\n\n${NESTED}: ${"no default exports here. ".repeat(1900)}\n`;
  const shell = await geminiSession(
    "gemini-shell",
    { "pkg/sub/AGENTS.md": big, "pkg/sub/log.txt": `${"log line\n".repeat(877)}xxxxxxx` },
    () => [
      {
        toolCall: {
          name: "run_shell_command",
          arguments: { command: "cat pkg/sub/log.txt pkg/sub/x.ts" },
        },
      },
      { text: "done" },
    ],
  );
  const afterShell = shell.turns[1];
  const body = afterShell ? JSON.stringify(afterShell.body) : "";
  check(
    "gemini-cli: a 7,900-character shell output with a 45 KB pkg/sub/AGENTS.md is not cut, and your glob rule arrives in it",
    afterShell && countIn(afterShell, USER_RULE) === 1 && !body.includes("characters omitted"),
    `${shell.turns.length} turns; your rule ${afterShell && countIn(afterShell, USER_RULE)}, cut ${body.includes("characters omitted")}\n${shell.run.stderr.slice(-1500)}`,
  );
}

const fake = await startFakeModel();
try {
  for (const agent of ONLY) {
    const cwd = project(agent);
    const home = join(TMP, agent, "home");
    mkdirSync(join(home, ".pi/agent"), { recursive: true });
    const snippet = hooksSnippet(agent, home);
    const from = fake.requests.length;
    fake.script.push(...reads(agent, cwd));
    const run = await runAgent(agent, {
      port: fake.port,
      model: MODELS[agent],
      cwd,
      home,
      message: "read pkg/sub/x.ts and pkg/sub/y.ts",
      afterSetup: installer(agent, cwd, snippet),
      ...(process.env.E2E_TIMEOUT_MS ? { timeoutMs: Number(process.env.E2E_TIMEOUT_MS) } : {}),
      env: {
        SYSPROMPT_AGENT_DIR: join(home, ".pi/agent"),
        // opencode installs @opencode-ai/plugin beside a plugin before it loads one; offline that
        // would wait for the network. The fake model answers the registry 404 at once instead.
        npm_config_registry: `http://127.0.0.1:${fake.port}/npm/`,
      },
      ...(agent === "gemini-cli" ? { mode: "yolo" } : {}),
      // Headless, no one can trust the hook in /hooks: the documented switch for automation.
      ...(agent === "codex" ? { extraArgs: ["--dangerously-bypass-hook-trust"] } : {}),
      ...(MODULES ? { modules: MODULES } : {}),
    });
    fake.script.length = 0;
    const turns = fake.requests
      .slice(from)
      .filter((r) => r.route && r.route !== "count" && r.reply && r.body?.tools?.length);
    // turns[0] asked for the first read; turns[1] carries its result; turns[2] the second read's.
    const [, afterFirst, afterSecond] = turns;
    if (!afterFirst || !afterSecond) {
      check(
        `${agent}: the agent made both reads`,
        false,
        `${turns.length} turns; exit ${run.code} ${run.signal}\n${run.stdout.slice(-1000)}\n${run.stderr.slice(-2000)}`,
      );
      continue;
    }
    if (process.env.E2E_DEBUG) {
      // Where each marker stands in the request after the first read.
      const text = JSON.stringify(afterFirst.body);
      for (const m of [NESTED, RULE]) {
        for (let at = text.indexOf(m); at !== -1; at = text.indexOf(m, at + 1)) {
          console.log(`      ${m}: …${text.slice(Math.max(0, at - 200), at + 40)}`);
        }
      }
    }
    const nested = [countIn(afterFirst, NESTED), countIn(afterSecond, NESTED)];
    const rule = [countIn(afterFirst, RULE), countIn(afterSecond, RULE)];
    check(
      `${agent}: the first read brings pkg/sub/AGENTS.md once, the second nothing more`,
      nested[0] === 1 && nested[1] === 1,
      `counts ${nested}`,
    );
    check(
      `${agent}: the first read brings the glob rule once, the second nothing more`,
      rule[0] === 1 && rule[1] === 1,
      `counts ${rule}\n${run.stderr.slice(-1500)}`,
    );
    check(
      `${agent}: the system prompt is the same in both requests`,
      systemOf(afterFirst) === systemOf(afterSecond),
    );
  }
  if (ONLY.includes("gemini-cli")) await geminiChecks();
} finally {
  await fake.close();
  rmSync(TMP, { recursive: true, force: true });
}
finish("agents-e2e hooks");
