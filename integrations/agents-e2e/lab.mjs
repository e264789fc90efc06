// What run.mjs and record.mjs share: fresh copies of the fixture projects, private HOMEs,
// `sysprompt export` with the repository's built CLI, and one agent session against the fake model.

import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { turnRequests } from "./extract.mjs";
import { HERE, REPO, runAgent } from "./harness.mjs";

export const CLI = join(REPO, "dist/src/cli/bin.js");
export const AGENTS = ["claude-code", "codex", "gemini-cli", "opencode"];

/**
 * The text of every fixture HOME's ~/.gemini/GEMINI.md: your global Gemini CLI memory, which
 * Gemini CLI appends to the same system instruction after an exported prompt (`<loaded_context>`,
 * `<global_context>`). No other agent reads it.
 */
export const GEMINI_HOME_MEMORY = "E2E-GEMINI-HOME: your own ~/.gemini/GEMINI.md.\n";

/** The model each agent asks for, unless a run names another. */
export const MODELS = {
  "claude-code": "claude-sonnet-4-5",
  codex: "gpt-5.5",
  "gemini-cli": "gemini-2.5-pro",
};

/** The runs with another model or mode, whose tools differ: `args` are export's flags for it. */
export const TOOL_SET_CASES = [
  { agent: "codex", model: "gpt-6-sol", args: ["--model", "gpt-6-sol"] },
  ...["auto_edit", "yolo", "plan"].map((mode) => ({
    agent: "gemini-cli",
    mode,
    args: ["--agent-mode", mode],
  })),
  { agent: "opencode", model: "gpt-5.5", args: ["--model", "gpt-5.5"] },
];

/** A temporary folder for projects and homes; `cleanup()` removes it. */
export function createLab() {
  const root = mkdtempSync(join(tmpdir(), "agents-e2e-"));
  let n = 0;
  const lab = {
    /** A fresh copy of the fixture project `name`, in a folder named `as` (default `name`). */
    project(name, as = name) {
      const dir = join(root, `p${++n}`, as);
      cpSync(join(HERE, "fixtures", name), dir, { recursive: true });
      return dir;
    },
    /** A fresh private HOME with an empty sysprompt agent dir, and ~/.gemini/GEMINI.md ({@link GEMINI_HOME_MEMORY}). */
    home() {
      const dir = join(root, `home${++n}`);
      mkdirSync(join(dir, ".pi/agent"), { recursive: true });
      mkdirSync(join(dir, ".gemini"), { recursive: true });
      writeFileSync(join(dir, ".gemini/GEMINI.md"), GEMINI_HOME_MEMORY);
      return dir;
    },
    /** `sysprompt ARGS` with the built CLI, in a private HOME. */
    sysprompt(args, { cwd, homeDir }) {
      const run = spawnSync(process.execPath, [CLI, ...args], {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: homeDir,
          XDG_CACHE_HOME: join(homeDir, ".cache"),
          SYSPROMPT_AGENT_DIR: join(homeDir, ".pi/agent"),
        },
        encoding: "utf8",
        timeout: 60_000,
      });
      return { code: run.status, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
    },
    /** Exports the prompt for `agent` in `cwd`: the file, its text and what export printed. */
    exportFor(agent, cwd, homeDir, extra = [], out = join(homeDir, `${agent}-prompt.md`)) {
      const run = lab.sysprompt(["export", "--agent", agent, "--out", out, ...extra], {
        cwd,
        homeDir,
      });
      if (run.code !== 0) throw new Error(`export --agent ${agent} failed: ${run.stderr}`);
      return {
        file: out,
        text: readFileSync(out, "utf8"),
        line: run.stdout.trim(),
        stderr: run.stderr,
      };
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  return lab;
}

/** The tools a prompt names: the `- name:` lines of its <tools> section. */
export function namedTools(text) {
  const m = /<tools>\n([\s\S]*?)\n<\/tools>/.exec(text);
  return m ? [...m[1].matchAll(/^- ([^:\n]+):/gm)].map((x) => x[1]) : [];
}

/**
 * One agent run against the fake model, with `options.script` queued; resolves with the run, the
 * requests it made and those of them that are its turns (they offer tools).
 */
export async function session(fake, agent, options) {
  const from = fake.requests.length;
  if (options.script) fake.script.push(...options.script);
  const run = await runAgent(agent, { port: fake.port, model: MODELS[agent], ...options });
  fake.script.length = 0;
  if (process.env.E2E_TIMES) console.log(`      (${run.ms} ms: ${agent} ${options.label ?? ""})`);
  const requests = fake.requests.slice(from);
  return { run, requests, turns: turnRequests(requests) };
}
