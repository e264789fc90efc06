import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// The workspace tree's listing cache and its level-by-level walk, against a
// repository built to confuse them and a cache file that is not a file. The
// cache file is the user's (here in the agent dir, agent/cache/): whatever
// it is, the walk lists as without it, says nothing, and never hangs on it.
// (That a second walk takes a settled folder from the cache, and what it
// keeps, is in test/gather/tree-listing-cache*.test.ts: a render keeps only
// folders settled for two seconds, which a catalogue case cannot wait for.)

const APP = "project/app";
const TREE = { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" } as const;
const CACHE = "agent/cache/sysprompt-tree.json";

/** Folders below the tree's three shown levels, one with an AGENTS.md four deep. */
const DEEP = [
  [`${APP}/a/b/c/d/AGENTS.md`, "Deep rules.\n"],
  [`${APP}/a/b/c/e/f.txt`, "f\n"],
] as const;

const onTime = (bad: Rendered) => {
  expect(bad.result.steps.filter((s) => s.status !== "ok" && s.status !== "skipped")).toEqual([]);
};

const patterns = `${Array.from({ length: 2000 }, (_, i) => `p${i}`).join("\n")}\n`;

/** The ignore file the budget case expects to be cut, found when the case is built (the file system's order decides it). */
const deepestCut = { file: "" };

const cases: CatalogueCase[] = [
  {
    name: "tree-cache-file-is-a-fifo",
    layout: [...DEEP, [CACHE, { fifo: true }]],
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: onTime,
  },
  {
    name: "tree-cache-file-links-to-dev-zero",
    layout: [...DEEP, [CACHE, { symlink: "/dev/zero" }]],
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: onTime,
  },
  {
    name: "tree-cache-file-is-a-folder",
    layout: [...DEEP, [CACHE, { dir: true }]],
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: onTime,
  },
  {
    name: "tree-cache-file-is-torn-json",
    layout: [...DEEP, [CACHE, '{"version":"tree-listing/1 sysprompt/0.1.0","roots":{"/x":']],
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: onTime,
  },
  {
    // Over the 8 MB the reader takes: never parsed.
    name: "tree-cache-file-is-huge",
    layout: [...DEEP],
    build: (root) => {
      mkdirSync(join(root, "agent/cache"), { recursive: true });
      writeFileSync(join(root, CACHE), `{"pad":"${"x".repeat(9 * 1024 * 1024)}"}`);
    },
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: onTime,
  },
  {
    // Five folders four deep, each with an AGENTS.md and a .gitignore of
    // 2,000 patterns, listed before a folder three deep whose .gitignore
    // hides an AGENTS.md below it. The shallower file is read first and
    // kept; the last of the deep ones read loses one pattern.
    name: "tree-deep-ignore-files-take-the-budget-last",
    options: TREE,
    build: (root) => {
      const b = join(root, APP, "a/b");
      mkdirSync(join(b, "p"), { recursive: true });
      mkdirSync(join(b, "q"));
      const [heavy, light] = readdirSync(b) as [string, string];
      for (let i = 0; i < 5; i++) {
        mkdirSync(join(b, heavy, `d${i}`));
        writeFileSync(join(b, heavy, `d${i}/.gitignore`), patterns);
        writeFileSync(join(b, heavy, `d${i}/AGENTS.md`), "Heavy.\n");
      }
      mkdirSync(join(b, light, "hidden"));
      writeFileSync(join(b, light, ".gitignore"), "hidden/\n");
      writeFileSync(join(b, light, "hidden/AGENTS.md"), "Ignored.\n");
      // The heavy files are read in their folder's order: the last one read loses a pattern.
      const last = readdirSync(join(b, heavy)).at(-1) as string;
      deepestCut.file = join(b, heavy, last, ".gitignore");
    },
    bad: [`${APP}/a`],
    changed: ["workspace_tree", "dir_context"],
    expected: () => {
      const file = deepestCut.file;
      return [
        diag(
          "warning",
          "ignore-patterns-cut",
          `ignore files hold more patterns than are kept (2000 per file, 10000 in all, 1 MiB of pattern text in all), so some entries they would hide may be shown: ${file} (1999 kept, 1 dropped)`,
          file,
        ),
      ];
    },
    verify: (bad) => {
      onTime(bad);
      expect(bad.data.agentsMd.filter((p) => p.includes("hidden"))).toEqual([]);
      expect(bad.data.agentsMd).toHaveLength(5);
    },
  },
];

describe("catalogue: the tree's listing cache and level-by-level walk, attacked", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined), 60_000);
});
