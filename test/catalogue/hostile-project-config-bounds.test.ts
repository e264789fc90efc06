import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// The deadline and the token budget decide which of your texts reach the
// prompt. Attack review 36c (F5): a trusted project's `.pi/sysprompt.yaml`
// with `deadline: 1` (then allowed: "it may only shorten it") left out your
// AGENTS.md, APPEND_SYSTEM.md, section, always rule and skill (a 1,531-byte
// prompt, one step-timeout warning), and the hook delivered none of your glob
// rules; `max-tokens: 1` cut your skill. Neither key is a project's to set now:
// each is left out with one warning at its line. Your own file still sets both.

beforeAll(() => ensureBuilt(), 120_000);

const MARKERS = [
  "USER-AGENTS-MARKER",
  "USER-APPEND-MARKER",
  "USER-SECTION-MARKER",
  "USER-RULE-MARKER",
  "USER-SKILL-MARKER",
];

/** A trusted project with `projectYaml` as its config, and an agent dir holding one text of each kind. */
function world(projectYaml: string, userYaml?: string) {
  const root = tempDir();
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write("project/.git/HEAD", "ref: refs/heads/main\n");
  write("project/src/x.ts", "export {};\n");
  write("project/.pi/sysprompt.yaml", projectYaml);
  write("agent/AGENTS.md", "# Mine\nUSER-AGENTS-MARKER always be nice\n");
  write("agent/APPEND_SYSTEM.md", "USER-APPEND-MARKER keep this\n");
  write("agent/sections/mine.md", "---\norder: 5\n---\nUSER-SECTION-MARKER mine\n");
  write("agent/rules/mine.md", "---\nalwaysApply: true\n---\nUSER-RULE-MARKER rule always\n");
  write("agent/rules/glob.md", '---\nglobs: "**/*.ts"\n---\nUSER-GLOB-MARKER glob rule\n');
  write(
    "agent/skills/mine/SKILL.md",
    "---\nname: mine\ndescription: USER-SKILL-MARKER skill\n---\nbody\n",
  );
  if (userYaml !== undefined) write("agent/sysprompt.yaml", userYaml);
  mkdirSync(join(root, "home"), { recursive: true });
  return { root, config: join(root, "project", ".pi", "sysprompt.yaml") };
}

const found = (text: string) => MARKERS.filter((m) => text.includes(m));

describe("hostile repository: a project's sysprompt.yaml setting your bounds", () => {
  it("deadline: 0 is left out with one warning; every text of yours is in the prompt", async () => {
    const w = world("tools: [read]\ndeadline: 0\n");
    const r = await renderSystemPrompt(pinned(w.root, { configFiles: true }));
    // Before: none of the five, and every step past its 0 ms deadline.
    expect(found(r.text)).toEqual(MARKERS);
    expect(r.diagnostics.map((d) => d.code)).not.toContain("step-timeout");
    expect(
      r.diagnostics
        .filter((d) => d.code.startsWith("config-project-"))
        .map((d) => [d.level, d.code, d.path, d.line]),
    ).toEqual([["warning", "config-project-deadline", w.config, 2]]);
    // The file's other keys still apply.
    expect(r.sections.find((s) => s.name === "tools")?.text).not.toContain("bash");
  });

  it("max-tokens: 1 is left out with one warning; your skill is listed", async () => {
    const w = world("max-tokens: 1\n");
    const r = await renderSystemPrompt(pinned(w.root, { configFiles: true }));
    expect(found(r.text)).toEqual(MARKERS);
    expect(r.budget).toBeUndefined();
    expect(
      r.diagnostics
        .filter((d) => d.code.startsWith("config-project-") || d.code.startsWith("budget-"))
        .map((d) => [d.level, d.code, d.line]),
    ).toEqual([["warning", "config-project-max-tokens", 1]]);
  });

  it("your own file still sets them: its max-tokens: 1 is the budget", async () => {
    const w = world("tools: [read]\n", "max-tokens: 1\n");
    const r = await renderSystemPrompt(pinned(w.root, { configFiles: true }));
    expect(r.budget?.maxTokens).toBe(1);
    // No cut fits 1 token: your skill is kept, and the budget is said to be exceeded (rev50b F1).
    expect(found(r.text)).toContain("USER-SKILL-MARKER");
    expect(r.diagnostics.map((d) => d.code)).toContain("budget-exceeded");
    expect(r.diagnostics.map((d) => d.code)).not.toContain("config-project-max-tokens");
  });

  it("the built hook delivers your glob rule under a project's deadline: 1", () => {
    const w = world("deadline: 1\n");
    const cwd = join(w.root, "project");
    const input = JSON.stringify({
      session_id: "s-1",
      cwd,
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(cwd, "src", "x.ts") },
    });
    const run = spawnSync(process.execPath, [BUILT_CLI, "hook", "claude-code"], {
      cwd,
      input,
      env: {
        PATH: process.env.PATH,
        HOME: join(w.root, "home"),
        XDG_CACHE_HOME: join(w.root, "cache"),
        SYSPROMPT_AGENT_DIR: join(w.root, "agent"),
      },
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    // Before: no reply, and "the 1 ms deadline passed before the rule files were found".
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(/^sysprompt hook: .*sysprompt\.yaml:1: deadline: 1 left out: /),
    ]);
    expect(run.stdout).toContain("USER-GLOB-MARKER");
  });
});
