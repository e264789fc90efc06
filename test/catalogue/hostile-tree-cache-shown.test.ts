import { lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LISTING_CACHE_VERSION } from "../../src/gather/tree/_listing-cache.js";
import { type CatalogueCase, type Rendered, runCase } from "./_harness.js";

// The tree's listing cache keeps the shown folders' listings too, and a warm
// walk lists no folder: it takes a folder's memo while the folder's stat is
// the memo's. Here the cache file is edited by hand, each memo with the real
// stat of its folder (so that the walk takes it), to name what no listing
// gives: a subfolder twenty thousand times, hidden entries and node_modules,
// entries the folder lacks, a link as a folder. The tree is the one without
// the cache (the harness renders again without the file and compares), on time.

const APP = "project/app";
const TREE = { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" } as const;
const CACHE = "agent/cache/sysprompt-tree.json";

type Memo = [number[], string[], string, string[], string[]];

/** The memos a listing of each folder below `dir` gives, by path below it, as the walk makes them. */
function memosOf(dir: string, rel = "", out: Record<string, Memo> = {}): Record<string, Memo> {
  const s = lstatSync(join(dir, rel));
  const memo: Memo = [[s.dev, s.ino, s.mtimeMs, s.ctimeMs, s.size, s.nlink], [], "", [], []];
  for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const name = entry.name;
    if (name.startsWith(".")) {
      if ((name === ".gitignore" || name === ".ignore") && entry.isFile()) memo[3].push(name);
      continue;
    }
    if (name === "node_modules") continue;
    if (entry.isDirectory()) {
      memo[1].push(name);
      memosOf(dir, rel === "" ? name : `${rel}/${name}`, out);
      continue;
    }
    const kind = entry.isFile() ? "f" : entry.isSymbolicLink() ? "l" : "o";
    if (name === "AGENTS.md" && kind !== "o") memo[2] = kind;
    memo[4].push(kind + name);
  }
  out[rel] = memo;
  return out;
}

/** Writes the cache file the render reads, its memos of the app's folders edited by `edit`. */
function handEdited(edit: (memos: Record<string, Memo>) => void) {
  return (root: string) => {
    const app = join(root, APP);
    const memos = memosOf(app);
    edit(memos);
    mkdirSync(join(root, "agent/cache"), { recursive: true });
    const file = { version: LISTING_CACHE_VERSION, roots: { [app]: { used: 1, folders: memos } } };
    writeFileSync(join(root, CACHE), JSON.stringify(file));
  };
}

const memo = (memos: Record<string, Memo>, rel: string): Memo => {
  const found = memos[rel];
  if (!found) throw new Error(`no memo of ${rel}`);
  return found;
};

/** No step failed or ran out of time, and the tree names none of `absent`. */
const onTimeWithout =
  (...absent: string[]) =>
  (bad: Rendered) => {
    expect(bad.result.steps.filter((s) => s.status !== "ok" && s.status !== "skipped")).toEqual([]);
    const tree = bad.data.workspaceTree?.rendered ?? "";
    expect(tree).toContain("src/");
    for (const name of absent) expect(tree).not.toContain(name);
  };

const cases: CatalogueCase[] = [
  {
    // 20,000 copies of one subfolder, at each of three levels, queued once
    // per copy: 8e12 folders, walked until the deadline in half a gigabyte.
    name: "tree-cache-memo-names-a-subfolder-twenty-thousand-times",
    layout: [[`${APP}/src/a/a/a/x.txt`, "x\n"]],
    before: handEdited((memos) => {
      for (const rel of ["", "src", "src/a", "src/a/a"]) {
        const m = memo(memos, rel);
        m[1] = Array(20_000).fill(m[1][0]);
      }
    }),
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: onTimeWithout(),
  },
  {
    name: "tree-cache-memo-names-hidden-entries-and-node-modules",
    layout: [
      [`${APP}/src/x.ts`, "x\n"],
      [`${APP}/.env`, "SECRET=1\n"],
      [`${APP}/node_modules/dep/index.js`, "x\n"],
    ],
    before: handEdited((memos) => {
      const m = memo(memos, "");
      m[1].push(".pi", "node_modules");
      m[4].push("f.env");
    }),
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: onTimeWithout(".env", ".pi", "node_modules", "SKILL.md"),
  },
  {
    // Names a listing could give but this folder lacks: shown entries are
    // stat'ed afresh, and a folder gone is not listed.
    name: "tree-cache-memo-names-entries-the-folder-lacks",
    layout: [[`${APP}/src/x.ts`, "x\n"]],
    before: handEdited((memos) => {
      const m = memo(memos, "");
      m[1].push("ghost-folder");
      m[4].push("fghost.txt", "lghost-link", "oghost-fifo");
      memo(memos, "src")[4].push("fghost-in-src.ts");
    }),
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: onTimeWithout("ghost"),
  },
  {
    // A link named as a folder, at the shown levels and below them: lstat'ed
    // before it is listed, so never followed; the tree shows it as the link it is.
    name: "tree-cache-memo-names-a-link-as-a-folder",
    layout: [
      [`${APP}/src/x.ts`, "x\n"],
      [`${APP}/up`, { symlink: "../.." }],
      [`${APP}/src/a/b/root`, { symlink: "/" }],
    ],
    before: handEdited((memos) => {
      const top = memo(memos, "");
      top[1].push("up");
      top[4] = top[4].filter((e) => e !== "lup");
      const b = memo(memos, "src/a/b");
      b[1].push("root");
      b[4] = b[4].filter((e) => e !== "lroot");
    }),
    bad: [CACHE],
    options: TREE,
    expected: () => [],
    verify: (bad) => {
      onTimeWithout("etc/", "proc/", "AGENTS.md ")(bad);
      expect(bad.data.workspaceTree?.rendered).toMatch(/\n {2}up -> \.\.\/\.\./);
    },
  },
];

describe("catalogue: a hand-edited listing cache over shown folders", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined), 60_000);
});
