import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bytePath } from "./_fixture.js";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// Things that are not regular files where a file is expected (FIFOs, sockets,
// folders, symlink loops, links whose target is gone) are never opened: each
// gives a diagnostic and the layer below, or nothing, takes its place. Odd
// names (spaces, newlines, bytes that are not UTF-8) are refused as section
// names and shown escaped in the workspace tree; a symlink is never followed
// by the tree, so a link to its own folder cannot loop.

const APP = "project/app";
const APP_AGENTS = "project/app/AGENTS.md";
const PI = "project/app/.pi";
const SECTIONS = `${PI}/sections`;
const RULES = `${SECTIONS}/rules.md`;
const TREE = { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" } as const;
const TIME = "2026-01-10 09:00";

const SKIPPED = "not a regular file; skipped without opening it";

/** One diagnostic about one path under the root. */
const one =
  (
    level: "error" | "warning" | "info",
    code: string,
    path: string,
    message: (root: string) => string,
  ) =>
  (root: string) => [diag(level, code, message(root), join(root, path))];

/** The clean tree (`app/` alone) with these lines below the root line. */
const treeWith =
  (lines: string[]) =>
  (bad: Rendered, clean: Rendered): void => {
    const cleanTree = clean.result.sections.find((s) => s.name === "workspace_tree")?.text ?? "";
    expect(cleanTree.endsWith("\napp/\n</workspace_tree>")).toBe(true);
    expect(bad.result.sections.find((s) => s.name === "workspace_tree")?.text).toEqual(
      cleanTree.replace("\napp/\n", `\napp/\n${lines.map((l) => `  ${l}\n`).join("")}`),
    );
  };

const cases: CatalogueCase[] = [
  {
    name: "context-fifo",
    layout: [[APP_AGENTS, { fifo: true }]],
    expected: one("info", "context-not-file", APP_AGENTS, () => `AGENTS.md is ${SKIPPED}`),
  },
  {
    name: "context-socket",
    layout: [[APP_AGENTS, { socket: true }]],
    expected: one("info", "context-not-file", APP_AGENTS, () => `AGENTS.md is ${SKIPPED}`),
  },
  {
    name: "context-folder",
    layout: [[APP_AGENTS, { dir: true }]],
    expected: one("info", "context-not-file", APP_AGENTS, () => `AGENTS.md is ${SKIPPED}`),
  },
  {
    name: "context-symlink-loop",
    layout: [[APP_AGENTS, { symlink: "AGENTS.md" }]],
    expected: one(
      "warning",
      "context-unreadable",
      APP_AGENTS,
      (root) =>
        `cannot inspect AGENTS.md: ELOOP: too many symbolic links encountered, stat '${root}/${APP_AGENTS}'`,
    ),
  },
  {
    // The file it linked to was deleted: the link names a context file that is not there.
    name: "context-symlink-dangling",
    layout: [[APP_AGENTS, { symlink: "gone.md" }]],
    expected: one(
      "warning",
      "symlink-broken",
      APP_AGENTS,
      () => "AGENTS.md is a symbolic link to gone.md, which does not exist; skipped",
    ),
  },
  {
    name: "section-fifo",
    layout: [[RULES, { fifo: true }]],
    expected: one("warning", "file-not-regular", RULES, () => SKIPPED),
  },
  {
    name: "section-socket",
    layout: [[RULES, { socket: true }]],
    expected: one("warning", "file-not-regular", RULES, () => SKIPPED),
  },
  {
    name: "section-symlink-loop",
    layout: [[RULES, { symlink: "rules.md" }]],
    expected: one(
      "warning",
      "file-unreadable",
      RULES,
      (root) =>
        `cannot read file: ELOOP: too many symbolic links encountered, stat '${root}/${RULES}'`,
    ),
  },
  {
    // A file deleted after it was linked to: the link stays, its target is gone.
    name: "section-symlink-dangling",
    layout: [[RULES, { symlink: "gone.md" }]],
    expected: one(
      "warning",
      "file-missing",
      RULES,
      (root) => `cannot read file: ENOENT: no such file or directory, stat '${root}/${RULES}'`,
    ),
  },
  {
    name: "partial-fifo",
    layout: [[`${PI}/partials/sig.md`, { fifo: true }]],
    expected: one("warning", "file-not-regular", `${PI}/partials/sig.md`, () => SKIPPED),
  },
  {
    name: "partials-folder-is-a-file",
    layout: [[`${PI}/partials`, "not a folder"]],
    expected: one(
      "warning",
      "dir-unreadable",
      `${PI}/partials`,
      (root) => `cannot list folder: ENOTDIR: not a directory, scandir '${root}/${PI}/partials'`,
    ),
  },
  {
    name: "system-md-fifo",
    layout: [[`${PI}/SYSTEM.md`, { fifo: true }]],
    expected: one("warning", "file-not-regular", `${PI}/SYSTEM.md`, () => SKIPPED),
  },
  {
    name: "append-system-socket",
    layout: [[`${PI}/APPEND_SYSTEM.md`, { socket: true }]],
    expected: one("warning", "file-not-regular", `${PI}/APPEND_SYSTEM.md`, () => SKIPPED),
  },
  {
    name: "section-name-with-space",
    layout: [[`${SECTIONS}/my rules.md`, "Mine."]],
    expected: one(
      "warning",
      "section-name",
      `${SECTIONS}/my rules.md`,
      () => '"my rules.md" is not a valid section file name (^[a-z][a-z0-9_-]*$ plus .md); ignored',
    ),
  },
  {
    name: "section-name-with-newline",
    layout: [[`${SECTIONS}/rules\n.md`, "Mine."]],
    expected: one(
      "warning",
      "section-name",
      `${SECTIONS}/rules\n.md`,
      () => '"rules\n.md" is not a valid section file name (^[a-z][a-z0-9_-]*$ plus .md); ignored',
    ),
  },
  {
    // The name as the folder listing decodes it: U+FFFD for the byte 0xFF.
    name: "section-name-not-utf8",
    layout: [[bytePath(`${SECTIONS}/r`, [0xff], ".md"), "Mine."]],
    expected: one(
      "warning",
      "section-name",
      `${SECTIONS}/r\uFFFD.md`,
      () => '"r\uFFFD.md" is not a valid section file name (^[a-z][a-z0-9_-]*$ plus .md); ignored',
    ),
  },
  {
    name: "partial-name-not-utf8",
    layout: [[bytePath(`${PI}/partials/sig`, [0xff], ".md"), "Signed."]],
    expected: one(
      "warning",
      "name-not-utf8",
      `${PI}/partials/sig\uFFFD.md`,
      () =>
        "the name of this file is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by that name; rename it",
    ),
  },
  {
    name: "tree-folder-symlink-loop",
    layout: [
      [`${APP}/loop`, { symlink: "." }],
      [`${APP}/up`, { symlink: ".." }],
    ],
    options: TREE,
    changed: ["workspace_tree"],
    expected: () => [],
    verify: treeWith([`loop -> .  ${TIME}`, `up -> ..  ${TIME}`]),
  },
  {
    // Names are shown as one line each: a newline escaped, a byte that is not
    // UTF-8 as U+FFFD; a FIFO and a socket are listed, never opened.
    name: "tree-odd-names",
    layout: [
      [`${APP}/with space.md`, "x"],
      [`${APP}/with\nnewline.md`, "x"],
      [bytePath(`${APP}/not-utf8-`, [0xff, 0xfe], ".md"), "x"],
      [bytePath(`${APP}/bin-`, [0xc3], "-dir"), { dir: true }],
      [`${APP}/fifo`, { fifo: true }],
      [`${APP}/sock`, { socket: true }],
    ],
    options: TREE,
    changed: ["workspace_tree"],
    expected: () => [],
    // Names that are not UTF-8 are left out: no ignore verdict on them is git's (rev51a F5).
    verify: treeWith([
      `fifo  ${TIME}`,
      `sock  ${TIME}`,
      `with\\u000anewline.md  1B  ${TIME}`,
      `with space.md  1B  ${TIME}`,
    ]),
  },
];

describe("catalogue: special files and names", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
