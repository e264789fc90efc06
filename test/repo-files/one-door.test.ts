import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importsOutside, namedImports, sourceFiles } from "./_imports.js";

// One door for repository files (src/repo-files/): a reader that opens a file
// some other way carries its own copy of the confinement rules, and each such
// copy so far missed some of them. This fails when code outside the door
// imports a way to read a file's contents; the files allowed to, below, read
// nothing a repository holds (or are the door's own parts), and say why.

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** The ways to read a file's contents, by the module they come from. */
const READERS: Record<string, readonly string[]> = {
  "node:fs": [
    "createReadStream",
    "open",
    "openSync",
    "read",
    "readFile",
    "readFileSync",
    "readSync",
    // fs.promises (open, readFile), the form the CLI bundle loads at first use.
    "promises",
  ],
  "node:fs/promises": ["open", "readFile"],
  _io: ["open", "readFile"],
  _fs: ["readHead", "readHeadSync", "readTextFile", "readTextFileSync"],
  "capped-read": ["readCappedText", "readCappedBytes"],
  // The door's strict form follows a folder link on the way (only the last name is refused):
  // a reader of a project's files that uses it must judge the folders itself, so it is listed.
  "no-follow": ["readFileNoFollow"],
  index: ["readFileNoFollow"],
};

const ALLOWED: Record<string, string> = {
  // The door itself, and the primitives it is built on.
  "repo-files/read.ts": "the door",
  "repo-files/read-sync.ts": "the door's synchronous twin",
  "repo-files/no-follow.ts": "the door's strict form (goldens, scenarios, sysprompt.yaml)",
  "_fs.ts": "defines readTextFile for the package's and the user's own files",
  "repo-files/capped-read.ts": "defines readCappedText, under the door",
  "repo-files/private-paths.ts":
    "the door's private-path rule: reads .gitignore patterns, never into the prompt",
  // Not a repository's files.
  "gather/steps.ts": "the package's builtin tools.md and rules.md",
  "serve/serve.ts": "the package's builtin tools.md",
  "serve/_page.ts": "the package's own page assets",
  "locate/builtin-cache.ts": "the package's own prompts and their build cache",
  "locate/text-or-path.ts": "an explicit --system-prompt file: the caller's option",
  "author/_drift.ts": "the package's builtin sections",
  "author/eject/eject.ts": "the package's builtin sections, copied out",
  "integrations/pi/trust-store.ts": "the agent dir's trust.json: the user's",
  "gather/environment/machine.ts": "the machine's own files (/etc/os-release)",
  "cli/commands/_user-homes.ts": "the machine's list of users (/etc/passwd), for -o's home folders",
  "_others-write.ts":
    "the machine's lists of users and groups (/etc/passwd, /etc/group), for whose group may write a folder",
  "hook/gemini-cut.ts":
    "Gemini CLI's system settings and your ~/.gemini/settings.json, for its cut; the workspace's goes through the door",
  "gather/environment/_env-cache.ts": "sysprompt's cache under $XDG_CACHE_HOME",
  "gather/tree/_listing-cache.ts": "sysprompt's cache under $XDG_CACHE_HOME",
  "hook/state.ts": "the hook's session files, sysprompt's cache under $XDG_CACHE_HOME",
  "cli/_stdin.ts": "the hook's standard input (descriptor 0): the agent's, never a repository file",
  "_safe-write.ts": "the write side: compares the bytes it would write with the target's",
  // The door's strict form, where the folder was judged first (it follows a folder link on the way).
  "config/load.ts":
    "sysprompt.yaml: the project's only after its folder's real path is found inside cwd, with the planted open-then-check (readProjectConfig)",
  "author/snapshot/_scenario.ts":
    "scenario files in the folder snapshot resolved to its real path and refused outside where it is named",
  "author/snapshot/_golden.ts":
    "goldens beside those scenario files, in the same real folder (a link at their own name refused)",
  // Bytes copied, never read as text: the copy is then read as an untrusted project, by the door.
  "author/sandbox.ts":
    "copies a scenario folder into its sandbox (O_NOFOLLOW, capped); a link only where the door would read it (reachRefusal)",
  "author/simulate/_simulate-actions.ts": "simulate's actions inside its own sandbox copy",
  // The git section's files (#24's git rules are their own work).
  "repo-files/safe-directory.ts":
    "your system and global git config, for safe.directory; a global file inside the repository is left unread",
  "repo-files/git-file.ts":
    "a worktree's or submodule's .git file: for the git section, and which repository a folder belongs to",
  "gather/git/_repository.ts":
    "objects/info/alternates, for the git section: its lines are paths checked, never text shown",
  "gather/git/_private.ts":
    "HEAD, refs, info/exclude and info/attributes of the judged git folder, through its held descriptor (O_NOFOLLOW, the opened path checked), copied into git's private folder: git reads them, never the prompt",
  // The recorder's module: every read above goes through it.
  "_io.ts": "the file-system layer every reader (the door included) calls",
  "_realpath.ts":
    "realpath as an O_PATH open read back from /proc/self/fd: the descriptor names a file and reads nothing",
  "session/_read-set.ts": "a session's recorded stats and links, never a file's contents",
};

const readersImported = (text: string) => namedImports(text, READERS);

describe("one door for repository files", () => {
  it("no code outside the door imports a way to read a file's contents, but the listed files", () => {
    expect(importsOutside(SRC, ALLOWED, READERS)).toEqual([]);
  });

  it("every allowed file still reads something (a stale entry would hide a new reader)", () => {
    const idle = Object.keys(ALLOWED).filter(
      (rel) => readersImported(readFileSync(join(SRC, rel), "utf8")).length === 0,
    );
    expect(idle).toEqual([]);
  });

  it("the check sees a reader: a reader of rules importing readTextFile is caught", () => {
    expect(readersImported('import { readTextFile } from "../../_fs.js";')).toEqual([
      "_fs:readTextFile",
    ]);
    expect(readersImported('import { open as o } from "node:fs/promises";')).toEqual([
      "node:fs/promises:open",
    ]);
    expect(readersImported('import { constants, promises as p } from "node:fs";')).toEqual([
      "node:fs:promises",
    ]);
    expect(
      readersImported('import { readFileNoFollow } from "../../repo-files/index.js";'),
    ).toEqual(["index:readFileNoFollow"]);
  });

  it("no code outside the door checks a project folder and then lists it by its path (rev88a F2)", () => {
    // The check and the listing go through one held folder (`listProjectFolder`): a file that
    // imports both a folder check and a lister could list what a link swapped in since leads to.
    const CHECKS = ["folderRefused", "folderRefusedSync", "folderRefusedAt"];
    const LISTERS = [
      "listFolder",
      "readListing",
      "readListingSync",
      "listFolderAtOnce",
      "listInBatches",
    ];
    const table = { index: [...CHECKS, ...LISTERS], "list-folder": LISTERS, reach: CHECKS };
    const both = sourceFiles(SRC)
      .filter((file) => !file.includes(`${join("src", "repo-files")}`))
      .filter((file) => {
        const names = namedImports(readFileSync(file, "utf8"), table).map((n) => n.split(":")[1]);
        return (
          names.some((n) => CHECKS.includes(n ?? "")) &&
          names.some((n) => LISTERS.includes(n ?? ""))
        );
      });
    expect(both).toEqual([]);
  });

  it("inside the door, a folder is listed by the descriptor its check held (rev89h F1)", () => {
    // `walkFolders` checked a rules folder or a skills root (realpath, `within`) and then listed
    // it by its path: a folder swapped for a link in between was listed through the link. Every
    // listing call in src/repo-files passes the held folder; the ones that may not say why.
    const BY_PATH: Record<string, number> = {
      // No judge (your own folders), and no `/proc` (not Linux): listed by path, as said there.
      "repo-files/project-folder.ts": 2,
    };
    const counts: Record<string, number> = {};
    for (const file of sourceFiles(join(SRC, "repo-files"))) {
      const rel = file.slice(SRC.length).split("\\").join("/");
      if (rel === "repo-files/list-folder.ts") continue;
      const text = readFileSync(file, "utf8");
      for (const call of text.matchAll(/(?<!function )\breadListing(?:Sync)?\(([^)]*)\)/g)) {
        if (!/\bheld\b/.test(call[1] ?? "")) counts[rel] = (counts[rel] ?? 0) + 1;
      }
    }
    expect(counts).toEqual(BY_PATH);
  });
});
