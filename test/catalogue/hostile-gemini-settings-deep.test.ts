import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, runCase } from "./_harness.js";

// `.gemini/settings.json` is JSON, not YAML: no nesting limit before the
// parse. An entry of `context.fileName` that is not a file name was quoted
// with JSON.stringify, which recurses: 30,000 nested lists (60 KB, under the
// file's 64 KiB cap) overflowed the stack, and the rules step (every rule
// file of the project) and the tree step failed, as did the hook's on-touch.
// Now such an entry is named by its kind; and since review rev107b F1 a
// settings file nested deeper than 64 levels is not parsed at all (said as a
// file that is not JSON is, with its line).

const DEPTH = 30_000;

const cases: CatalogueCase[] = [
  {
    name: "gemini-settings-nested-lists",
    layout: [
      [
        "project/app/.gemini/settings.json",
        `{"context":{"fileName":["GEMINI.md",${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}]}}`,
      ],
      ["project/app/.cursorrules", "Cursor rule text.\n"],
    ],
    bad: ["project/app/.gemini", "project/app/.cursorrules"],
    options: { workspaceTree: true },
    changed: ["project_rules", "dir_context", "workspace_tree"],
    expected: (root) => [
      diag(
        "warning",
        "gemini-settings",
        "not read as JSON (it nests deeper than 64 levels, at line 1); context.fileName not read, GEMINI.md used",
        join(root, "project/app/.gemini/settings.json"),
      ),
    ],
    verify: (bad) => {
      expect(bad.result.steps.filter((s) => s.status === "failed")).toEqual([]);
      expect(bad.result.text).toContain("Cursor rule text.");
    },
  },
];

describe("hostile repository: Gemini CLI's settings nested deep", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined), 60_000);
});
