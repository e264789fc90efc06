import { join } from "node:path";
import { tempDir } from "../api/_helpers.js";
import { buildLayout, type Layout } from "./_fixture.js";

// Two repositories under a folder an agent session may run in (`~/work`, or
// `~`): `client`, with secrets, and a cloned `evil` whose nested instruction
// files lead into `client` and `~/Documents`, by a link or by an `@import`.
// See hostile-touch-other-project.test.ts.

/** What may never reach the model: client's files and yours. */
export const SECRETS = /MARKER-[A-Z]+/g;

/** The folders of evil a file is touched in. */
const FOLDERS = ["env", "cfg", "src", "imp", "doc", "own", "ex", "w", "l"];

/** `home/work/client` and `home/work/evil`, two repositories; `home/Documents` yours. */
export const LAYOUT: Layout = [
  ["home/work/client/.git/HEAD", "ref: refs/heads/main\n"],
  [
    "home/work/client/.git/config",
    '[remote "origin"]\n\turl = https://u:MARKER-GITTOKEN@example.com/x.git\n',
  ],
  ["home/work/client/.env", "DB_PASSWORD=MARKER-CLIENTENV\n"],
  ["home/work/client/config/notes.txt", "MARKER-CLIENTNOTES\n"],
  ["home/work/client/src/core.ts", "// MARKER-CLIENTSRC\n"],
  ["home/Documents/finances.txt", "MARKER-DOCUMENTS\n"],
  ["home/.pi/agent", { dir: true }],
  ["home/work/evil/.git/HEAD", "ref: refs/heads/main\n"],
  ["home/work/evil/.git/info/exclude", "local.txt\n"],
  ["home/work/evil/local.txt", "EVIL-EXCLUDED\n"],
  ["home/work/evil/guide.md", "Evil's own guide.\n"],
  ["home/work/evil/env/AGENTS.md", { symlink: "../../client/.env" }],
  ["home/work/evil/cfg/AGENTS.md", { symlink: "../../client/.git/config" }],
  ["home/work/evil/src/AGENTS.md", { symlink: "../../client/src/core.ts" }],
  ["home/work/evil/imp/GEMINI.md", "Read this: @../../client/config/notes.txt\n"],
  ["home/work/evil/doc/GEMINI.md", "Notes: @../../../Documents/finances.txt\n"],
  // Claude Code reads a nested AGENTS.md itself, not a GEMINI.md: the hook gives this one.
  ["home/work/evil/own/GEMINI.md", "Evil's nested text. @../guide.md\n"],
  ["home/work/evil/ex/AGENTS.md", { symlink: "../local.txt" }],
  // Rule files an agent finds in a folder below cwd too, delivered on touch.
  ["home/work/evil/w/.windsurf/rules/r.md", { symlink: "../../../../client/config/notes.txt" }],
  ["home/work/evil/l/CLAUDE.local.md", { symlink: "../../client/.env" }],
  ...FOLDERS.map((d) => [`home/work/evil/${d}/x.ts`, ""] as const),
];

/** A file of each folder, relative to `home/work`. */
export const TOUCHED = FOLDERS.map((d) => `evil/${d}/x.ts`);

export async function layout(): Promise<{ home: string; work: string; base: string }> {
  const base = tempDir();
  await buildLayout(base, "touch-other-project", LAYOUT);
  return { base, home: join(base, "home"), work: join(base, "home", "work") };
}
