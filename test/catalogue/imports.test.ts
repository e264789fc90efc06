import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cutMarker } from "../../src/repo-files/capped-read.js";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// @imports in the cwd's AGENTS.md that go too deep, go round in a circle,
// leave the project root (by .., an absolute path, ~/ or a link), or lead to
// something that is not a text file. Each stays as written with a diagnostic
// at the token; everything else in the file, and every other file, loads.

const APP = "project/app";
const APP_AGENTS = "project/app/AGENTS.md";
const KIB = 1024;
const MIB = 1024 * KIB;
const LINE = "Imported line.\n";

/** The context files are the clean ones and then the cwd's, with `content`. */
const appContext =
  (content: string) =>
  (bad: Rendered, clean: Rendered, root: string): void => {
    expect(bad.data.contextFiles).toEqual([
      ...clean.data.contextFiles,
      { path: join(root, APP_AGENTS), content, origin: "project" },
    ]);
  };

/** One diagnostic at the token in the cwd's AGENTS.md (line 1, column 5: after "Top "). */
const atToken =
  (level: "warning" | "info", code: string, message: (root: string) => string) =>
  (root: string) => [diag(level, code, message(root), join(root, APP_AGENTS), 1, 5)];

/** A case whose one import stays as written. */
function refused(
  name: string,
  token: string,
  extra: CatalogueCase["layout"],
  code: string,
  message: (root: string) => string,
  level: "warning" | "info" = "warning",
): CatalogueCase {
  return {
    name,
    layout: [[APP_AGENTS, `Top ${token}\n`], ...(extra ?? [])],
    changed: ["project_context"],
    expected: atToken(level, code, message),
    verify: appContext(`Top ${token}`),
  };
}

const outside = (token: string, target: (root: string) => string) => (root: string) =>
  `${token}: not imported: it resolves to ${target(root)}, outside the project root ${root}/project; left as written`;

const cases: CatalogueCase[] = [
  {
    // A chain of eight files: five levels are followed, the fifth's own import stays.
    name: "import-deep",
    layout: [
      [APP_AGENTS, "Top @d1.md\n"],
      ...[1, 2, 3, 4, 5, 6, 7, 8].map(
        (i) => [`${APP}/d${i}.md`, `Level ${i} @d${i + 1}.md\n`] as const,
      ),
    ],
    bad: [APP_AGENTS],
    changed: ["project_context"],
    expected: (root) => [
      diag(
        "info",
        "import-depth",
        "imports are followed 5 levels deep; the import in this file is left as written",
        join(root, APP, "d5.md"),
        1,
        9,
      ),
    ],
    verify: appContext("Top Level 1 Level 2 Level 3 Level 4 Level 5 @d6.md"),
  },
  {
    // a → b → a, and b back to the file itself: each repeat stays as written.
    name: "import-cycle",
    layout: [
      [APP_AGENTS, "Top @a.md\n"],
      [`${APP}/a.md`, "A @b.md\n"],
      [`${APP}/b.md`, "B @a.md and @../app/AGENTS.md\n"],
    ],
    bad: [APP_AGENTS],
    changed: ["project_context"],
    expected: (root) =>
      [
        ["@a.md", "a.md", 3],
        ["@../app/AGENTS.md", "AGENTS.md", 13],
      ].map(([token, file, column]) =>
        diag(
          "info",
          "import-repeat",
          `${token}: ${join(root, APP, file as string)} is already part of this context file (a cycle or a repeat); left as written`,
          join(root, APP, "b.md"),
          1,
          column as number,
        ),
      ),
    verify: appContext("Top A B @a.md and @../app/AGENTS.md"),
  },
  refused(
    "import-escape-dotdot",
    "@../../outside.md",
    [["outside.md", "Secret."]],
    "import-outside",
    outside("@../../outside.md", (root) => `${root}/outside.md`),
  ),
  refused(
    "import-escape-absolute",
    "@/etc/passwd",
    [],
    "import-outside",
    outside("@/etc/passwd", () => "/etc/passwd"),
  ),
  refused(
    "import-escape-home",
    "@~/secret.md",
    [["home/secret.md", "Secret."]],
    "import-outside",
    outside("@~/secret.md", (root) => `${root}/home/secret.md`),
  ),
  refused(
    // Inside the root as written; outside once the link is followed.
    "import-escape-symlink",
    "@link.md",
    [
      ["outside.md", "Secret."],
      [`${APP}/link.md`, { symlink: "../../outside.md" }],
    ],
    "import-outside",
    outside("@link.md", (root) => `${root}/outside.md`),
  ),
  refused(
    "import-fifo",
    "@pipe.md",
    [[`${APP}/pipe.md`, { fifo: true }]],
    "import-unreadable",
    () => "@pipe.md: not a regular file; skipped without opening it; left as written",
  ),
  refused(
    "import-socket",
    "@sock.md",
    [[`${APP}/sock.md`, { socket: true }]],
    "import-unreadable",
    () => "@sock.md: not a regular file; skipped without opening it; left as written",
  ),
  refused(
    "import-symlink-loop",
    "@loop.md",
    [[`${APP}/loop.md`, { symlink: "loop.md" }]],
    "import-unreadable",
    (root) =>
      `@loop.md: ELOOP: too many symbolic links encountered, realpath '${root}/${APP}/loop.md'; left as written`,
  ),
  refused(
    "import-binary",
    "@bin.md",
    [[`${APP}/bin.md`, "x\u0000y"]],
    "import-unreadable",
    () => "@bin.md: binary file (NUL bytes) skipped; left as written",
  ),
  refused(
    "import-missing",
    "@nothere.md",
    [],
    "import-missing",
    (root) => `@nothere.md: no file at ${root}/${APP}/nothere.md; left as written`,
  ),
  {
    name: "import-50mb",
    layout: [
      [APP_AGENTS, "Top @big.md\n"],
      [
        `${APP}/big.md`,
        { sparse: 50 * MIB, head: LINE.repeat(Math.ceil((300 * KIB) / LINE.length)) },
      ],
    ],
    changed: ["project_context"],
    expected: (root) => [
      diag(
        "warning",
        "context-cut",
        "file is 52428800 bytes, over the 262144-byte limit: cut after 262144 bytes, 52166656 left out",
        join(root, APP, "big.md"),
      ),
    ],
    verify: (bad, clean, root) => {
      const imported = LINE.repeat(Math.ceil((300 * KIB) / LINE.length)).slice(0, 256 * KIB);
      appContext(`Top ${imported.trimEnd()}\n${cutMarker(50 * MIB - 256 * KIB, 256 * KIB)}`)(
        bad,
        clean,
        root,
      );
    },
  },
];

describe("catalogue: imports", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
