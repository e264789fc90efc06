import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// Input built to stall a render: ignore files with more patterns than any
// project needs, each of which costs a regular expression test for every
// entry a walk meets, in the tree and in a skills folder. The patterns past
// the caps (2,000 per file, 10,000 in all) are cut with one warning naming
// the file, and every step finishes on time, so nothing else is lost.
// (A folder of a million entries and a skills folder linked to / are in
// test/gather/stall.test.ts: what they cost is time, which a catalogue
// case, rendering twice in full, cannot bound.)

const APP = "project/app";
const TREE = { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" } as const;

/** `count` patterns of the kind no shortcut can skip (a `?`, a class), one a line. */
const patterns = (count: number, shape: (i: number) => string) =>
  `${Array.from({ length: count }, (_, i) => shape(i)).join("\n")}\n`;

const cut = (root: string, file: string, kept: number, dropped: number) =>
  diag(
    "warning",
    "ignore-patterns-cut",
    `ignore files hold more patterns than are kept (2000 per file, 10000 in all, 1 MiB of pattern text in all), so some entries they would hide may be shown: ${join(root, file)} (${kept} kept, ${dropped} dropped)`,
    join(root, file),
  );

const onTime = (bad: Rendered) => {
  expect(bad.result.steps.filter((s) => s.status !== "ok" && s.status !== "skipped")).toEqual([]);
};

const cases: CatalogueCase[] = [
  {
    // The working directory's .gitignore: 50,000 `x?y` patterns; 300 folders with one each.
    name: "gitignore-bomb-tree",
    build: (root) => {
      writeFileSync(
        join(root, APP, ".gitignore"),
        patterns(50_000, (i) => `x${i}?y`),
      );
      for (let i = 0; i < 300; i++) {
        const dir = join(root, APP, "bomb", `d${i}`);
        mkdirSync(join(dir, "sub"), { recursive: true });
        writeFileSync(join(dir, ".gitignore"), "x?y\n");
      }
    },
    bad: [`${APP}/.gitignore`, `${APP}/bomb`],
    options: TREE,
    changed: ["workspace_tree"],
    expected: (root) => [cut(root, `${APP}/.gitignore`, 2000, 48_000)],
    verify: onTime,
  },
  {
    // A skills folder's .gitignore of 50,000 class patterns over 300 folders.
    name: "gitignore-bomb-skills",
    build: (root) => {
      const skills = join(root, APP, ".pi", "skills");
      writeFileSync(
        join(skills, ".gitignore"),
        patterns(50_000, (i) => `q${i}[ab]`),
      );
      for (let i = 0; i < 300; i++)
        mkdirSync(join(skills, "bomb", `g${i}`, "h"), { recursive: true });
    },
    bad: [`${APP}/.pi/skills/.gitignore`, `${APP}/.pi/skills/bomb`],
    expected: (root) => [cut(root, `${APP}/.pi/skills/.gitignore`, 2000, 48_000)],
    verify: onTime,
  },
];

describe("catalogue: hostile input that stalls", () => {
  // Generous: writing 300 folders and rendering twice takes seconds on a loaded machine.
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined), 60_000);
});
