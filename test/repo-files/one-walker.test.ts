import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importsOutside, namedImports } from "./_imports.js";

// One walker for repository folders (src/repo-files/walk.ts): a walk that
// lists folders its own way carries its own copy of the caps, the deadline
// checks and the link policy, and each such copy so far missed some of them.
// This fails when code outside the walker imports a way to list a folder;
// the files allowed to, below, say why.

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** The ways to list a folder, by the module they come from. */
const LISTERS: Record<string, readonly string[]> = {
  // fs.promises (readdir, opendir), the form the CLI bundle loads at first use.
  "node:fs": ["opendir", "opendirSync", "readdir", "readdirSync", "promises"],
  "node:fs/promises": ["opendir", "readdir"],
  _io: ["opendirSync", "readdir", "readdirSync"],
  "list-folder": ["listFolderAtOnce", "listInBatches", "readListing"],
};

const ALLOWED: Record<string, string> = {
  // The walker and what it is built on.
  "repo-files/walk.ts": "the walker",
  "repo-files/list-folder.ts":
    "the walker's listing: capped, a batch at a time, the deadline heard",
  "_io.ts": "the file-system layer every listing (the walker's included) calls",
  // The workspace tree: its own synchronous walk on the walker's listing, kept for speed (bench tree-git).
  "gather/tree/_tree-walk.ts": "the workspace tree's walk, on list-folder.ts",
  "gather/tree/_tree-layout.ts":
    "a folder the tree walk listed, again by bytes, only for a name that is not UTF-8",
  "_fs.ts": "a failed read's folder, by bytes, only to tell a name that is not UTF-8",
  // Not a repository's folders.
  "locate/builtin-cache.ts": "the package's own prompts",
  "hook/state.ts": "the hook's session files, sysprompt's cache under $XDG_CACHE_HOME",
  "cli/commands/_output-file.ts":
    "the links among your home folder's dot entries and in ~/.config, for -o's checks: 4,096 entries a folder, nothing read",
  "repo-files/own-private.ts":
    "your home's private places (~/.ssh, ~/.aws, …), for their files' identities when a file of yours with more than one name is read: 4,096 entries, 6 folders deep, nothing read (rev99a)",
  "session/_read-set.ts":
    "a session's recorded stats and links (imports node:fs whole); lists nothing",
  "author/sandbox.ts":
    "the sandboxes' own folder in the cache, for abandoned ones (the copy itself walks through the walker)",
  // One folder's names, not a walk; not yet on the walker (issue 27, item 3). (prompt-templates/load.ts
  // lists through listProjectFolder since rev88a F2.)
  "gather/git/_links.ts": "the git section's .git folders, capped, a batch at a time",
  // fs.promises for other calls; no listing.
  "_safe-write.ts": "fs.promises for the write side (open, mkdir, rename, link); lists nothing",
  "locate/text-or-path.ts": "fs.promises.stat of an explicit --system-prompt path; lists nothing",
};

const listersImported = (text: string) => namedImports(text, LISTERS);

describe("one walker for repository folders", () => {
  it("no code outside the walker imports a way to list a folder, but the listed files", () => {
    expect(importsOutside(SRC, ALLOWED, LISTERS)).toEqual([]);
  });

  it("every allowed file still lists something (a stale entry would hide a new walk)", () => {
    const idle = Object.keys(ALLOWED).filter(
      (rel) => listersImported(readFileSync(join(SRC, rel), "utf8")).length === 0,
    );
    expect(idle).toEqual([]);
  });

  it("the check sees a walk: skills listing with readdir, or rules with list-folder, is caught", () => {
    expect(listersImported('import { readdir, realpath } from "../_io.js";')).toEqual([
      "_io:readdir",
    ]);
    expect(
      listersImported('import { listInBatches as l } from "../../repo-files/list-folder.js";'),
    ).toEqual(["list-folder:listInBatches"]);
    expect(listersImported('import { opendirSync } from "node:fs";')).toEqual([
      "node:fs:opendirSync",
    ]);
    expect(listersImported('import { promises as p } from "node:fs";')).toEqual([
      "node:fs:promises",
    ]);
  });
});
