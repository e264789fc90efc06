import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";
import { unprivilegedSkip } from "./_nobody.js";
import { about, runTemplatesCase, type TemplatesCase } from "./_templates.js";

// Files and folders the user running the render cannot read (mode 000). Root
// reads them anyway, so as root these cases run the built library as uid
// 65534 (see _nobody.ts) and are skipped, with the reason, where that cannot
// work. Each unreadable thing is a warning with the system's own message; the
// render goes on without it.

const UNPRIVILEGED_SKIP = unprivilegedSkip();

const APP = "project/app";
const PI = `${APP}/.pi`;
const LOCKED = { text: "Locked.\n", mode: 0o000 } as const;
const LOCKED_DIR = { dir: true, mode: 0o000 } as const;
const TREE = { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" } as const;

const denied = (root: string, call: "open" | "scandir", path: string) =>
  `EACCES: permission denied, ${call} '${join(root, path)}'`;

/** One warning about `path`: `code`, and the message made from the system's. */
const warning =
  (path: string, code: string, message: (root: string) => string) => (root: string) => [
    diag("warning", code, message(root), join(root, path)),
  ];

const cases: CatalogueCase[] = [
  {
    name: "context-unreadable",
    layout: [[`${APP}/AGENTS.md`, LOCKED]],
    unprivileged: true,
    expected: warning(
      `${APP}/AGENTS.md`,
      "file-unreadable",
      (root) => `cannot read file: ${denied(root, "open", `${APP}/AGENTS.md`)}`,
    ),
  },
  {
    name: "import-unreadable",
    layout: [
      [`${APP}/AGENTS.md`, "Top @secret.md\n"],
      [`${APP}/secret.md`, LOCKED],
    ],
    unprivileged: true,
    changed: ["project_context"],
    expected: (root) => [
      diag(
        "warning",
        "import-unreadable",
        `@secret.md: cannot read file: ${denied(root, "open", `${APP}/secret.md`)}; left as written`,
        join(root, APP, "AGENTS.md"),
        1,
        5,
      ),
    ],
    verify: (bad, clean, root) => {
      expect(bad.data.contextFiles).toEqual([
        ...clean.data.contextFiles,
        { path: join(root, APP, "AGENTS.md"), content: "Top @secret.md", origin: "project" },
      ]);
    },
  },
  {
    name: "section-unreadable",
    layout: [[`${PI}/sections/rules.md`, LOCKED]],
    unprivileged: true,
    expected: warning(
      `${PI}/sections/rules.md`,
      "file-unreadable",
      (root) => `cannot read file: ${denied(root, "open", `${PI}/sections/rules.md`)}`,
    ),
  },
  {
    name: "sections-folder-unreadable",
    layout: [
      ["agent/sections/rules.md", "Mine."],
      ["agent/sections", LOCKED_DIR],
    ],
    bad: ["agent/sections"],
    unprivileged: true,
    expected: warning(
      "agent/sections",
      "dir-unreadable",
      (root) => `cannot list folder: ${denied(root, "scandir", "agent/sections")}`,
    ),
  },
  {
    name: "skill-unreadable",
    layout: [[`${PI}/skills/beta/SKILL.md`, LOCKED]],
    bad: [`${PI}/skills/beta`],
    unprivileged: true,
    expected: warning(
      `${PI}/skills/beta/SKILL.md`,
      "file-unreadable",
      (root) => `cannot read file: ${denied(root, "open", `${PI}/skills/beta/SKILL.md`)}`,
    ),
  },
  {
    name: "skills-folder-unreadable",
    layout: [
      [`${PI}/skills/beta/SKILL.md`, "---\nname: beta\ndescription: B.\n---\n"],
      [`${PI}/skills/beta`, LOCKED_DIR],
    ],
    bad: [`${PI}/skills/beta`],
    unprivileged: true,
    expected: warning(
      `${PI}/skills/beta`,
      "skills-dir-unreadable",
      (root) => `cannot list folder: ${denied(root, "scandir", `${PI}/skills/beta`)}`,
    ),
  },
  {
    // Shown, without the entries no one may list, and named in a warning.
    name: "tree-folder-unreadable",
    layout: [
      [`${APP}/secret/a.md`, "a"],
      [`${APP}/secret`, LOCKED_DIR],
    ],
    bad: [`${APP}/secret`],
    options: TREE,
    unprivileged: true,
    changed: ["workspace_tree"],
    expected: (root) => [
      diag(
        "warning",
        "tree-unreadable",
        "the workspace tree could not list this folder (no permission or an I/O error), shown without entries: secret",
        join(root, `${APP}/secret`),
      ),
    ],
    verify: (bad: Rendered, clean: Rendered) => {
      const tree = (r: Rendered) =>
        r.result.sections.find((s) => s.name === "workspace_tree")?.text;
      expect(tree(bad)).toEqual(
        tree(clean)?.replace("\napp/\n", "\napp/\n  secret/  2026-01-10 09:00\n"),
      );
    },
  },
];

const templateCases: TemplatesCase[] = [
  {
    name: "prompt-unreadable",
    layout: [[`${PI}/prompts/fix.md`, LOCKED]],
    unprivileged: true,
    expected: (root) =>
      about(
        `${PI}/prompts/fix.md`,
        "warning",
        "file-unreadable",
        `cannot read file: ${denied(root, "open", `${PI}/prompts/fix.md`)}`,
      )(root),
  },
  {
    name: "prompts-folder-unreadable",
    layout: [
      ["agent/prompts/fix.md", "Fix."],
      ["agent/prompts", LOCKED_DIR],
    ],
    unprivileged: true,
    expected: (root) =>
      about(
        "agent/prompts",
        "warning",
        "prompts-unreadable",
        `cannot list prompt templates folder: ${denied(root, "scandir", "agent/prompts")}`,
      )(root),
  },
];

// Each case starts a Node process as another user: about 1.5 s on an idle machine, over the
// default 5 s on a loaded one (seen once in the full suite at load 4), so each gets 30 s.
const CASE_TIMEOUT_MS = 30_000;

describe("catalogue: unreadable files and folders (EACCES)", () => {
  if (UNPRIVILEGED_SKIP) it.skip(`all skipped: ${UNPRIVILEGED_SKIP}`, () => {});
  for (const c of cases) {
    it.skipIf(UNPRIVILEGED_SKIP)(c.name, () => runCase(c).then(() => undefined), CASE_TIMEOUT_MS);
  }
  for (const c of templateCases) {
    it.skipIf(UNPRIVILEGED_SKIP)(c.name, () => runTemplatesCase(c), CASE_TIMEOUT_MS);
  }
});
