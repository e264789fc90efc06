import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MAX_AGENTS_MD } from "../../src/gather/tree/tree.js";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// Size, not content: ten thousand AGENTS.md files below the working directory
// and one folder of 200,000 entries, with the workspace tree on. The tree
// stays within its 120 lines, the AGENTS.md list within its 200 paths (and
// the prompt says it is cut short), and the tree step finishes well inside
// the default 5 s deadline, so nothing is dropped for lateness.
//
// Files are hard links to a few seed files: one system call each, no inodes,
// so the 200,000 entries take about 2 s to make on a loaded 2-core machine,
// and taking them out of the project for the clean render is one rename.

// Removing ten thousand folders after a case takes seconds on a loaded machine:
// more than vitest's 10 s for a hook once, in a full run beside other work.
vi.setConfig({ hookTimeout: 60_000 });

const APP = "project/app";
const TREE = { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" } as const;
const TIME = "2026-01-10 09:00";
const ENTRIES = 200_000;
/** ext4 allows 65,000 links to one file. */
const LINKS_PER_SEED = 60_000;

const section = (r: Rendered, name: string) => r.result.sections.find((s) => s.name === name);

/** The tree kept its line cap and the tree step was on time. */
function boundedTree(bad: Rendered): void {
  const tree = section(bad, "workspace_tree")?.text ?? "";
  // The cap counts the listing's lines; the section adds its intro and its tags.
  const listing = tree.slice(tree.indexOf("\napp/\n") + 1, tree.lastIndexOf("\n</workspace_tree>"));
  expect(listing.split("\n").length).toBeLessThanOrEqual(120);
  expect(bad.result.steps.find((s) => s.name === "tree")?.status).toBe("ok");
}

const cases: CatalogueCase[] = [
  {
    // a0…a9 / b0…b9 / c0…c99 / AGENTS.md: 10,000 files at depth 4, the deepest listed.
    name: "agents-md-10000",
    build: (root) => {
      for (let a = 0; a < 10; a++) {
        for (let b = 0; b < 10; b++) {
          for (let c = 0; c < 100; c++) {
            const dir = join(root, APP, `a${a}`, `b${b}`, `c${c}`);
            mkdirSync(dir, { recursive: true });
            // Files of their own: a hard link the door refuses (review rev96a F1), and the tree with it.
            writeFileSync(join(dir, "AGENTS.md"), "Folder rules.\n");
          }
        }
      }
    },
    bad: Array.from({ length: 10 }, (_, a) => `${APP}/a${a}`),
    options: TREE,
    changed: ["workspace_tree", "dir_context"],
    expected: () => [
      diag(
        "info",
        "agents-md-limit",
        "10000 context files (AGENTS.md, CLAUDE.md, GEMINI.md…) in the folders below the working directory: the 200 shallowest are listed, and the prompt says the list is cut short",
      ),
    ],
    verify: (bad) => {
      boundedTree(bad);
      expect(bad.data.agentsMd.length).toBe(MAX_AGENTS_MD);
      expect(bad.data.agentsMd.slice(0, 3)).toEqual([
        "a0/b0/c0/AGENTS.md",
        "a0/b0/c1/AGENTS.md",
        "a0/b0/c10/AGENTS.md",
      ]);
      expect(bad.data.agentsMdTruncated).toBe(true);
      expect(section(bad, "dir_context")?.text.split("\n").slice(-3)).toEqual([
        "Such a file holds the rules for its folder and everything under it. Where it disagrees with a file from a folder above, the deeper file wins inside its folder. Before you change any file in one of these folders, read the file listed for it and follow it.",
        "This list is cut short: more folders have such a file than it shows. Before you change a file in a folder not listed here, look for an instruction file (such as AGENTS.md) in that folder and in the folders above it, up to the working directory.",
        "</dir_context>",
      ]);
    },
  },
  {
    name: "folder-200000-entries",
    build: (root) => {
      const big = join(root, APP, "big");
      mkdirSync(big, { recursive: true });
      const seeds = Math.ceil(ENTRIES / LINKS_PER_SEED);
      for (let s = 0; s < seeds; s++) writeFileSync(join(root, `seed${s}`), "");
      for (let i = 0; i < ENTRIES; i++) {
        linkSync(join(root, `seed${Math.floor(i / LINKS_PER_SEED)}`), `${big}/f${i}`);
      }
    },
    bad: [`${APP}/big`],
    options: TREE,
    changed: ["workspace_tree"],
    expected: () => [],
    verify: (bad, clean) => {
      boundedTree(bad);
      // By name, as a folder this large is listed: f0, f1, f10, f100, …, and f99999 last.
      const shown = ["f0", "f1", "f10", "f100", "f1000", "f10000", "f100000", "f100001"];
      shown.push("f100002", "f100003", "f100004");
      expect(section(bad, "workspace_tree")?.text).toEqual(
        section(clean, "workspace_tree")
          ?.text.replace(
            "are not listed.\n",
            // The folder's `… K more` left entries out, and the intro says so.
            "are not listed. Some entries are left out of this listing; list a folder to see all of it.\n",
          )
          .replace(
            "\napp/\n",
            `\napp/\n  big/  ${TIME}  (over 1000 entries: listed by name)\n${shown.map((n) => `    ${n}  0B  ${TIME}\n`).join("")}    … ${ENTRIES - 12} more\n    f99999  0B  ${TIME}\n`,
          ),
      );
    },
  },
];

describe("catalogue: scale", () => {
  // Generous: making 200,000 links and rendering takes 5-10 s on a loaded 2-core machine.
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined), 60_000);
});
