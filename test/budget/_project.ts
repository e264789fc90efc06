import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTree, manyFiles, type Spec } from "../gather/_tree.js";

/**
 * A project whose prompt has everything a budget can cut: a workspace tree
 * (pinned mtimes) with a wide folder and three levels, AGENTS.md files below
 * the working directory, two skills and context files at two levels. Laid out
 * as `<root>/project` (cwd), `<root>/agent`, `<root>/home`, like `pinned()`.
 */
export function budgetProject(root: string): string {
  const spec: Record<string, Spec> = {
    ...manyFiles("src/widgets", 14),
    "src/widgets/": { at: "2026-01-09 00:00" },
    "src/index.ts": { at: "2026-01-08 00:00", size: 900 },
    "src/": { at: "2026-01-10 00:00" },
    "docs/guide/intro.md": { at: "2026-01-05 00:00", size: 2000 },
    "docs/guide/": { at: "2026-01-05 00:00" },
    "docs/": { at: "2026-01-06 00:00" },
    "packages/api/AGENTS.md": { at: "2026-01-04 00:00", text: "# API\n" },
    "packages/api/": { at: "2026-01-04 00:00" },
    "packages/web/deep/AGENTS.md": { at: "2026-01-03 00:00", text: "# Web\n" },
    "packages/web/deep/": { at: "2026-01-03 00:00" },
    "packages/web/": { at: "2026-01-03 00:00" },
    "packages/": { at: "2026-01-04 00:00" },
    "README.md": { at: "2026-01-11 00:00", size: 4000 },
    "AGENTS.md": {
      at: "2026-01-02 00:00",
      text: "# Widgets\n\n- Run `npm test` before you say a change is done.\n- Keep modules small.\n",
    },
  };
  makeTree(join(root, "project"), spec);
  for (const [name, description] of [
    [
      "pdf",
      "Extract text and tables from PDF files, fill PDF forms, and merge or split documents.",
    ],
    ["changelog", "Write the changelog entry for a release from the commits since the last tag."],
  ] as const) {
    const dir = join(root, "project", ".pi", "skills", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`,
    );
  }
  mkdirSync(join(root, "agent"), { recursive: true });
  writeFileSync(
    join(root, "agent", "AGENTS.md"),
    [
      "# My defaults",
      "",
      "- Answer briefly, and lead with the answer; details after.",
      "- Prefer small diffs that are easy to review over sweeping rewrites.",
      "- When there is more than one reasonable way, name the trade-offs before you pick one.",
      "",
    ].join("\n"),
  );
  return root;
}
