import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Your own AGENTS.md is escaped against the builtins' and your layers' element names (docs/trust.md,
// "ownTextNames"): git's README writes `man git-<commandname>`, read as the prompt's
// `command_name`, and it was printed `&lt;commandname>` with no warning (review rev74e F1).
// Every rewrite of your text is said: one warning per file, naming it, the line and the tag.

async function renderWith(text: string, rule?: string) {
  const root = tempDir();
  const agentDir = join(root, "home", ".pi", "agent");
  mkdirSync(join(agentDir, "rules"), { recursive: true });
  writeFileSync(join(agentDir, "AGENTS.md"), text);
  if (rule !== undefined) writeFileSync(join(agentDir, "rules", "own.md"), rule);
  const repo = join(root, "project");
  mkdirSync(join(repo, ".git"), { recursive: true });
  return { agentDir, result: await renderSystemPrompt(pinned(repo, { agentDir })) };
}

describe("your own AGENTS.md: a tag written &lt; is said", () => {
  it("warns once, naming the file, the first line and the tag", async () => {
    const { agentDir, result } = await renderWith(
      "# My rules\n\nSee `man git-<commandname>` and `git help <name>`.\nUse <tools> and <rule> as placeholders.\n",
    );
    // The premise: the decided escape (your text opens none of the prompt's elements).
    expect(result.text).toContain("man git-&lt;commandname>");
    const said = result.diagnostics.filter((d) => d.code === "own-text-tag-escaped");
    expect(said).toHaveLength(1);
    expect(said[0]?.level).toBe("warning");
    expect(said[0]?.path).toBe(join(agentDir, "AGENTS.md"));
    expect(said[0]?.message).toContain('"<commandname>"');
    expect(said[0]?.message).toContain("line 3");
  });

  it("says nothing of a tag that names no element of the prompt", async () => {
    const { result } = await renderWith("Use `<foo>` and <commandnam> as placeholders.\n");
    expect(result.text).toContain("Use `<foo>` and <commandnam> as placeholders.");
    expect(result.diagnostics.filter((d) => d.code === "own-text-tag-escaped")).toEqual([]);
  });

  it("warns for your always rule the same way, once per file", async () => {
    const { agentDir, result } = await renderWith(
      "Plain words.\n",
      "---\nalwaysApply: true\n---\nRun `git help <name>`.\nThen <tools>.\n",
    );
    expect(result.text).toContain("git help &lt;name>");
    const said = result.diagnostics.filter((d) => d.code === "own-text-tag-escaped");
    expect(said.map((d) => d.path)).toEqual([join(agentDir, "rules", "own.md")]);
    expect(said[0]?.message).toContain('"<name>"');
  });
});
