import { describe, expect, it } from "vitest";
import { renderWithinBudget } from "../../src/budget/fit.js";
import type { PromptData } from "../../src/data.js";
import { countLines, DATA, engine, TREE, template, templates } from "../budget/_world.js";

// A budget cut's description named every context file or rule it left out.
// A repository can hold a thousand rule files (and an AGENTS.md in each of
// thousands of folders above the working one), each path up to 4 KiB: one
// cut's `detail` in `budget.cuts` (printed by `explain`, and in `--json`)
// ran to megabytes. It names 20 and counts the rest.

const RULES = template(
  "project_rules",
  "{{#list alwaysRules join='\\n'}}## {{path}}\n{{content}}{{/list}}",
  75,
  { priority: 35, steps: ["always-rules"] },
);

describe("hostile repository: a budget cut of hundreds of long-named rules", () => {
  it("names 20 of them and counts the rest", () => {
    const folder = `/work/${"deep/".repeat(780)}`;
    const data: PromptData = {
      ...DATA,
      alwaysRules: Array.from({ length: 100 }, (_, i) => ({
        name: `r${i}`,
        source: "cursor",
        path: `${folder}.cursor/rules/r${i}.mdc`,
        content: `rule ${i}\n${"a rule line long enough to be worth its marker\n".repeat(4)}`,
        origin: "project" as const,
      })),
    };
    const out = renderWithinBudget({ templates: [...templates(), RULES], data }, engine, {
      maxTokens: 100,
      treeLines: TREE,
      countTokens: countLines,
    });
    const cut = out.budget.cuts.find((c) => c.section === "project_rules");
    expect(cut?.detail).toMatch(/^100 of 100 inlined rules left out \(/);
    expect(cut?.detail).toContain("r19.mdc and 80 more)");
    expect(cut?.detail).not.toContain("r20.mdc");
    // Before: ~400 KB (100 paths of ~3,950 characters); now 20 of them.
    expect(cut?.detail.length ?? 0).toBeLessThan(100_000);
  });
});
