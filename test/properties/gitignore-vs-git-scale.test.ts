import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// The door's "ignored by git" is git's own verdict: random trees of folders
// with glob-syntax names (`[x]`, `#n`, `!k`, `a\b`, `é`), each with a
// .gitignore of random patterns (classes, `?`, `*`, `**`, anchors, `!`,
// escapes, trailing spaces), every file's verdict compared with
// `git check-ignore` (review rev50a F3, F4: the rebase and the bytes). Names
// and patterns in both cases (`A`, `aB`, `[A-C]`): git with core.ignoreCase=false
// matches case-sensitively, and so must the door (review rev51a F1).

const NAMES = [
  "a",
  "b",
  "ab",
  "A",
  "aB",
  "É",
  "é",
  "clé",
  "[x]",
  "#n",
  "!k",
  "x y",
  "c?",
  "d*",
  "a\\b",
  "e.yml",
  "E.YML",
];
/** A name as the bytes of its UTF-8, one character each: patterns are written byte for byte. */
const bytes = (s: string) => Buffer.from(s, "utf8").toString("latin1");
const PIECES = [
  ...NAMES.filter((n) => !n.startsWith("#") && !n.startsWith("!")).map(bytes),
  "*",
  "?",
  "**",
  "[a-c]",
  "[A-C]",
  "[!a]",
  "?B",
  "A*",
  "*.YML",
  "cl??",
  "cl?",
  "[\xc3][\xa9]",
  "*.yml",
  "\\[x\\]",
  "\\#n",
  "\\!k",
  "a*",
  "*b",
  "\\*",
];

const name = fc.constantFrom(...NAMES);
const pattern = fc
  .record({
    negate: fc.boolean(),
    lead: fc.boolean(),
    segments: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 3 }),
    dirOnly: fc.boolean(),
    space: fc.constantFrom("", "", " ", "  "),
  })
  .map(
    (p) =>
      `${p.negate ? "!" : ""}${p.lead ? "/" : ""}${p.segments.join("/")}${p.dirOnly ? "/" : ""}${p.space}`,
  );
const folder = fc.array(name, { minLength: 1, maxLength: 2 }).map((parts) => parts.join("/"));
const tree = fc.record({
  folders: fc.uniqueArray(folder, { minLength: 1, maxLength: 3 }),
  ignores: fc.array(fc.array(pattern, { maxLength: 4 }), { minLength: 4, maxLength: 4 }),
  // A folder's .gitignore as a link to its patterns: no ignore file for git (>= 2.32) (rev51a F4).
  links: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  files: fc.array(fc.array(name, { minLength: 1, maxLength: 3 }), { minLength: 4, maxLength: 4 }),
});

function gitIgnored(cwd: string, paths: readonly string[]): Set<string> {
  const out = execFileSync(
    "git",
    [
      "-c",
      "core.quotePath=false",
      "-c",
      "core.ignoreCase=false",
      "check-ignore",
      "--no-index",
      "--stdin",
      "-z",
    ],
    // git warns of each linked .gitignore ("Too many levels of symbolic links").
    { cwd, input: paths.join("\0"), encoding: "utf8", stdio: ["pipe", "pipe", "ignore"] },
  );
  return new Set(out.split("\0").filter((l) => l !== ""));
}

/** `git check-ignore` exits 1 when it ignores none. */
function gitIgnoredOrNone(cwd: string, paths: readonly string[]): Set<string> {
  try {
    return gitIgnored(cwd, paths);
  } catch (error) {
    if ((error as { status?: number }).status === 1) return new Set();
    throw error;
  }
}

describe("the door's ignore verdict against git check-ignore", () => {
  it("agrees on every file of random trees", async () => {
    const base = tempDir();
    const home = join(base, "home");
    mkdirSync(home);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(tree, async (t) => {
        const root = join(base, `r${run++}`);
        mkdirSync(root);
        execFileSync("git", ["init", "-q", root]);
        const dirs = ["", ...t.folders];
        for (const dir of dirs) mkdirSync(join(root, dir), { recursive: true });
        const paths: string[] = [];
        for (const [i, dir] of dirs.entries()) {
          const lines = t.ignores[i] ?? [];
          if (lines.length > 0) {
            const text = Buffer.from(`${lines.join("\n")}\n`, "latin1");
            if (t.links[i]) {
              const target = join(base, `linked-${run}-${i}`);
              writeFileSync(target, text);
              symlinkSync(target, join(root, dir, ".gitignore"));
            } else {
              writeFileSync(join(root, dir, ".gitignore"), text);
            }
          }
          for (const file of t.files[i] ?? []) {
            const rel = dir === "" ? file : `${dir}/${file}`;
            // A folder of that name is there already: it stays a folder.
            if (existsSync(join(root, rel))) continue;
            writeFileSync(join(root, rel), "x");
            paths.push(rel);
          }
        }
        const git = gitIgnoredOrNone(root, paths);
        const check = privatePaths(root, { signal: NO_DEADLINE, hidden: false, home, env: {} });
        const door = new Set<string>();
        for (const p of paths) if ((await check(join(root, p))) !== undefined) door.add(p);
        rmSync(root, { recursive: true, force: true });
        expect([...door].sort()).toEqual([...git].sort());
      }),
      { numRuns: 100, seed: 50 },
    );
  }, 120_000);
});
