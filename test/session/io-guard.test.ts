import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** The code that gathering runs: its reads must go through src/_io.ts, or a session would not see them. */
const GATHERING = [
  "_cache-location.ts",
  "_fs.ts",
  "gather",
  "locate",
  "repo-files",
  "sections",
  "skills",
];

/**
 * Direct `node:fs` imports that are allowed there, and why: none of them reads
 * something a render's text depends on, so a session need not check it.
 */
const ALLOWED: Record<string, string[]> = {
  // The synchronous twins serve loadPromptTemplatesSync, the CLI and the listing cache, never
  // a gathering step's text (open, fstat, read and close: the file stat'ed, read from its open
  // descriptor).
  "_fs.ts": ["closeSync", "constants", "fstatSync", "openSync", "readSync", "statSync"],
  // Writes only, of the GPU answer and the tree's listing cache: the GPU cache is
  // read through readTextFile; the listing cache by readTextFileSync, and it
  // never changes the text (a kept listing is used only while its folder's
  // stat is the one it was made with, and the walk notes that stat). The lstat
  // is of the cache folder before a write (never a link), not of what a prompt says.
  "_cache-location.ts": ["lstatSync", "mkdirSync", "renameSync", "rmSync"],
  // /etc/localtime, once, when the machine is described (a session keeps one machine).
  "gather/environment/machine.ts": ["readlinkSync"],
  // The build-time cache of the package's own prompts, keyed by their text.
  "locate/builtin-cache.ts": ["readFileSync", "readdirSync", "writeFileSync"],
  // Explicit --system-prompt / --append-system-prompt files: options, read afresh on every render
  // (fs.promises.stat: the CLI bundle loads fs.promises at first use).
  "locate/text-or-path.ts": ["promises"],
  // The git section's private git folder (rev92a F6, F7): the judged repository's HEAD, refs and
  // info files, read through its held descriptor and written into a folder of sysprompt's own for
  // git to read; git's own reads are not recorded either, and its output is what the section shows.
  "gather/git/_private.ts": [
    "closeSync",
    "constants",
    "fstatSync",
    "mkdirSync",
    "mkdtempSync",
    "openSync",
    "readFileSync",
    "rmSync",
    "statSync",
    "writeFileSync",
  ],
  // A flag for open(), not a call.
  "repo-files/capped-read.ts": ["constants"],
  // A flag for open(), not a call.
  "repo-files/no-follow.ts": ["constants"],
  // The door's flags; its promise forms read through _io.ts.
  "repo-files/read.ts": ["constants"],
  // The look at your private places (~/.ssh, ~/.aws, …) when a file of yours with more than one name
  // is read: their files' identities only, never a text, and not noted, or a session would render
  // again each time ssh rewrites known_hosts (review rev99a).
  "repo-files/own-private.ts": ["opendirSync", "statSync"],
  // The door's synchronous twin (a skill's expansion, loadPromptTemplatesSync): never a gathering
  // step's text.
  "repo-files/read-sync.ts": ["closeSync", "fstatSync", "openSync", "statSync"],
};

function sourceFiles(path: string): string[] {
  if (path.endsWith(".ts")) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => sourceFiles(join(path, e.name)));
}

/** Names imported as values (not `type`) from node:fs or node:fs/promises. */
function fsValueImports(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(
    /import\s+(type\s+)?\{([^}]*)\}\s+from\s+"node:fs(?:\/promises)?"/g,
  )) {
    if (m[1]) continue;
    for (const part of (m[2] ?? "").split(",")) {
      const name = part.trim();
      if (name && !name.startsWith("type ")) names.push(name.split(/\s+as\s+/)[0] ?? name);
    }
  }
  if (/import\s+\*\s+as\s+\w+\s+from\s+"node:fs/.test(text)) names.push("*");
  return names.sort();
}

describe("gathering reads the disk only through src/_io.ts", () => {
  it("no other node:fs value imports than the allowed ones", () => {
    const found: Record<string, string[]> = {};
    for (const part of GATHERING) {
      for (const file of sourceFiles(join(SRC, part))) {
        const names = fsValueImports(readFileSync(file, "utf8"));
        if (names.length > 0) found[relative(SRC, file).split("\\").join("/")] = names;
      }
    }
    expect(found).toEqual(ALLOWED);
  });
});
