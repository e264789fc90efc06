import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { formatSkillsForPrompt, loadContextForPaths, loadSkills } from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";

// The prompt maps a lone surrogate (a YAML escape: `name: "style\ud800"`) to
// U+FFFD (hostile-lone-surrogate), since a provider's API refuses a request
// holding one. The hook's reply did not: a repository's Continue glob rule
// named "style\ud800" put `rule="style\ud800"` into Claude Code's
// additionalContext, which it then sends with every later request of the
// session (the Anthropic API answers 400). Review rev36d (medium), and
// formatSkillsForPrompt kept one from a skill's description (low). Every text
// handed to an agent now gets the prompt's pass.

/** True when `text` holds a surrogate without its partner. */
const lone = (text: string) =>
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

function project(files: Record<string, string>) {
  const root = tempDir();
  const all: Record<string, string> = {
    "p/.git/HEAD": "ref: refs/heads/main\n",
    "p/pkg/x.ts": "x\n",
    "p/.continue/rules/style.md":
      '---\nname: "style\\ud800"\nglobs: "**/*.ts"\n---\nREPO-STYLE-RULE\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, "home"), { recursive: true });
  return { cwd: join(root, "p"), home: join(root, "home"), cache: join(root, "cache") };
}

describe("hostile repository: no lone surrogate reaches what the hook and the API hand an agent", () => {
  it("the hook's reply for a rule named with a YAML surrogate escape", async () => {
    const { cwd, home, cache } = project({});
    const input = JSON.stringify({
      session_id: "h1",
      cwd,
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(cwd, "pkg/x.ts") },
      tool_response: {},
    });
    const { reply } = await runHook("claude-code", input, { env: { XDG_CACHE_HOME: cache }, home });
    expect(reply).not.toMatch(/\\ud[89ab]/i);
    const context = JSON.parse(reply).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('rule="style\ufffd"');
    expect(lone(context)).toBe(false);
  });

  it("contextFor's files", async () => {
    const { cwd, home } = project({
      "p/pkg/AGENTS.md": "nested: \ud800 a lone half, as a string can hold it\n",
    });
    const rules = [
      {
        name: "style\ud800",
        path: join(cwd, ".cursor/rules/\udc00.mdc"),
        content: "Rule \udc00 text.",
        activation: "glob" as const,
        globs: ["**/*.ts"],
        layer: "project" as const,
        format: "cursor",
      },
    ];
    const touched = await loadContextForPaths([join(cwd, "pkg/x.ts")], {
      cwd,
      home,
      rules: rules as never,
    });
    expect(touched.files.length).toBeGreaterThan(0);
    for (const f of touched.files) {
      expect(lone(f.path)).toBe(false);
      expect(lone(f.content)).toBe(false);
      expect(lone(f.name ?? "")).toBe(false);
    }
  });

  it("formatSkillsForPrompt", async () => {
    const { cwd, home } = project({
      "p/.pi/skills/dep/SKILL.md":
        '---\nname: dep\ndescription: "deploy \\ud800 things"\n---\nbody\n',
    });
    const { skills } = await loadSkills({ cwd, home });
    expect(skills.map((s) => s.name)).toContain("dep");
    const out = formatSkillsForPrompt(skills);
    expect(out).toContain("deploy \ufffd things");
    expect(lone(out)).toBe(false);
  });
});
