import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { o200kCounter } from "../../src/budget/tokens.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { builtinSection, pinned, tempDir } from "../api/_helpers.js";
import { budgetProject } from "./_project.js";

const render = (root: string, maxPromptTokens?: number) =>
  renderSystemPrompt(
    pinned(root, { workspaceTree: true, ...(maxPromptTokens ? { maxPromptTokens } : {}) }),
  );

describe("maxPromptTokens through renderSystemPrompt (builtin sections, o200k)", () => {
  it("no budget: no budget field; a budget the prompt fits: the same text, no cut", async () => {
    const root = budgetProject(tempDir());
    const plain = await render(root);
    expect("budget" in plain).toBe(false);
    const roomy = await render(root, 100_000);
    expect(roomy.text).toBe(plain.text);
    expect(roomy.diagnostics).toEqual(plain.diagnostics);
    expect(roomy.budget).toEqual({
      maxTokens: 100_000,
      tokenizer: "o200k_base",
      initialTokens: roomy.budget?.tokens,
      tokens: roomy.budget?.tokens,
      fits: true,
      cuts: [],
      skipped: [],
    });
  });

  it("the estimate is the sections counted one by one: within a token per section of the whole text's count", async () => {
    const root = budgetProject(tempDir());
    const result = await render(root, 100_000);
    const whole = o200kCounter()(result.text);
    const estimate = result.budget?.tokens ?? 0;
    expect(Math.abs(estimate - whole)).toBeLessThanOrEqual(result.sections.length);
  });

  it("an impossible budget: every builtin step in priority order, a warning per cut, one error, never a throw", async () => {
    const root = budgetProject(tempDir());
    const result = await render(root, 1);
    expect(result.budget?.cuts.map((c) => [c.section, c.step])).toEqual([
      ["workspace_tree", "tree-lines"],
      ["dir_context", "agents-md"],
      ["skills", "skill-descriptions"],
      ["skills", "skill-list"],
      ["project_context", "context-files"],
    ]);
    expect(result.budget?.fits).toBe(false);
    const budgetDiagnostics = result.diagnostics.filter((d) => d.code.startsWith("budget-"));
    expect(budgetDiagnostics.map((d) => [d.level, d.code, d.path])).toEqual([
      ["warning", "budget-cut", builtinSection("workspace_tree")],
      ["warning", "budget-cut", builtinSection("dir_context")],
      ["warning", "budget-cut", builtinSection("skills")],
      ["warning", "budget-cut", builtinSection("skills")],
      ["warning", "budget-cut", builtinSection("project_context")],
      ["error", "budget-exceeded", undefined],
    ]);
    // The preamble, tools and rules declare no steps: they are whole.
    const plain = await render(root);
    for (const name of ["preamble", "tools", "rules", "environment", "cwd", "date"]) {
      const text = (r: typeof plain) => r.sections.find((s) => s.name === name)?.text;
      expect([name, text(result)]).toEqual([name, text(plain)]);
    }
  });

  it("a project override with shrink: false keeps its section whole", async () => {
    const root = budgetProject(tempDir());
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    writeFileSync(join(sections, "workspace_tree.md"), "---\nshrink: false\n---\n");
    const plain = await render(root);
    const result = await render(root, 1);
    const tree = (r: typeof plain) => r.sections.find((s) => s.name === "workspace_tree")?.text;
    expect(tree(result)).toBe(tree(plain));
    expect(result.budget?.cuts.map((c) => c.section)).not.toContain("workspace_tree");
  });

  it("special-token text is counted as text, not refused", async () => {
    const root = budgetProject(tempDir());
    writeFileSync(
      join(root, "project", "AGENTS.md"),
      "Never print <|endoftext|> or <|im_start|>.\n",
    );
    // Yours is printed as written and reaches the tokenizer whole; the repository's is
    // written `&lt;|` (rev58c F1).
    const result = await renderSystemPrompt(
      pinned(root, {
        workspaceTree: true,
        maxPromptTokens: 100_000,
        appendSystemPrompt: "Mine: never print <|endoftext|>.",
      }),
    );
    expect(result.budget?.fits).toBe(true);
    expect(result.text).toContain("Mine: never print <|endoftext|>.");
    expect(result.text).toContain("Never print &lt;|endoftext|> or &lt;|im_start|>.");
  });
});
