import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SystemPromptOptions } from "../../src/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { budgetProject } from "../budget/_project.js";
import { FIXTURES, pinned } from "./_helpers.js";

/**
 * Golden prompts name absolute paths (cwd, context files), so each scenario is
 * rendered from a copy at a fixed path, the same on every machine, rather than
 * from the repository (whose location varies) or a random temp dir.
 *
 * The copy is synchronised, never wiped: two test runs at once (two people,
 * or a watcher) then read the same unchanged files instead of one deleting
 * what the other is rendering; only a file that differs from the fixture is
 * written, and only files the fixture no longer has are removed.
 */
const GOLDEN_ROOT = "/tmp/sysprompt-golden";

function syncDir(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const wanted = new Set(readdirSync(from));
  for (const name of readdirSync(to)) {
    if (!wanted.has(name)) rmSync(join(to, name), { recursive: true, force: true });
  }
  for (const name of wanted) {
    const source = join(from, name);
    const target = join(to, name);
    if (statSync(source).isDirectory()) {
      syncDir(source, target);
    } else if (!sameFile(source, target)) {
      rmSync(target, { recursive: true, force: true });
      copyFileSync(source, target);
    }
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return statSync(b).isFile() && readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

async function renderGolden(scenario: string, extra: SystemPromptOptions = {}) {
  syncDir(join(FIXTURES, "api"), GOLDEN_ROOT);
  return renderSystemPrompt(pinned(join(GOLDEN_ROOT, scenario), extra));
}

describe("golden prompts", () => {
  it("default-tools: the builtin prompt with the default tools and one AGENTS.md", async () => {
    const result = await renderGolden("default-tools");
    expect(result.diagnostics).toEqual([]);
    await expect(result.text).toMatchFileSnapshot("../../snapshots/default-tools.md");
  });

  it("custom-system-with-append: project SYSTEM.md and APPEND_SYSTEM.md plus an appended value", async () => {
    const result = await renderGolden("custom-system-with-append", {
      appendSystemPrompt: "Today's focus: the 2.4.0 release.",
    });
    expect(result.diagnostics).toEqual([]);
    await expect(result.text).toMatchFileSnapshot("../../snapshots/custom-system-with-append.md");
  });

  it("default-tools with a small model (gpt-4o-mini): the builtin rules@small variant serves rules", async () => {
    const result = await renderGolden("default-tools", { model: "gpt-4o-mini" });
    expect(result.diagnostics).toEqual([]);
    expect(result.sections.find((s) => s.name === "rules")?.source.variant).toBe("small");
    await expect(result.text).toMatchFileSnapshot("../../snapshots/default-tools-small-model.md");
  });

  it("budget-tree-skills: a token budget that cuts the workspace tree, the AGENTS.md list and the skill descriptions", async () => {
    // Built, not copied: the tree's mtimes are pinned by makeTree. A root of its
    // own, since syncing fixtures/api into GOLDEN_ROOT removes what is not there.
    const root = "/tmp/sysprompt-golden-budget/budget-tree-skills";
    budgetProject(root);
    const result = await renderSystemPrompt(
      pinned(root, { workspaceTree: true, maxPromptTokens: 965 }),
    );
    expect(result.budget?.cuts.map((c) => [c.section, c.step, c.complete])).toEqual([
      ["workspace_tree", "tree-lines", true],
      ["dir_context", "agents-md", true],
      ["skills", "skill-descriptions", true],
    ]);
    expect(result.budget?.fits).toBe(true);
    await expect(result.text).toMatchFileSnapshot("../../snapshots/budget-tree-skills.md");
  });

  it("project-override-base: a project rules section that keeps the builtin rules with {{> base}}", async () => {
    const result = await renderGolden("project-override-base");
    expect(result.diagnostics).toEqual([]);
    await expect(result.text).toMatchFileSnapshot("../../snapshots/project-override-base.md");
  });
});
