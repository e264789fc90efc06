import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// The door's "ignored by git" against real git, on random ignore lines built
// from the pieces git's matcher reads differently from the documented rules:
// literal text right before `**` (`conf**/x`, `/a/b**`, `a**//`: git's
// match_pathname compares the literal prefix on its own and wildmatches the
// rest, where a leading `**` crosses folders, review rev68a F2), escaped
// slashes (`**\/x`, `?\/**`), `*`, `?`, classes, escapes, anchors,
// negations, trailing slashes, classes that do not end at their first `]`
// (`[!][x]`, `[\\][x]`, `[[:alpha:][x]`, rev69c F1), uppercase class members, ranges and escapes
// (`[!A]`, `[A-C]`, `\A`, which git under core.ignoreCase=true compares as written or folds,
// rev71a F3), line ends with a CR git keeps (`x\r\r`, `x\r `, rev71a F4) and lines that are a
// lone `!` (rev71a F2), in a trial folder's .gitignore and in its
// subfolder's. Each trial is a folder of one repository, so one
// `git check-ignore --no-index` judges every path of every trial. The seed is
// fixed: a failure names the trial's lines and the paths that differ.

const TRIALS = 500;
const SEED = 68;

/** mulberry32: a small PRNG whose runs a seed fixes. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

const PREFIXES = ["a", "ab", "/a", "a/b", "s/a", "/a/b", "c", "conf"];
const AFTER_STARS = ["/", "/", "\\/", "", "//", "/**/", "x"];
const PIECES = [
  ["a", "b", "c", "ab", "*", "**", "**", "?", "/", "/", "[ab]", "[!a]", "\\a", "\\*", "\\/"],
  ["x.md", ".", "-", "[a-c]", "*.md", "ig"],
  // Classes wildmatch does not end at their first `]` (rev69c F1), and other corners.
  ["[!]", "[^]", "[\\]", "[[:alpha:]", "[]a]", "[!]a]", "[^a]", "[a-]", "[-a]", "[]-b]"],
  ["A", "B", "[\\]a]", "[[:alpha:]]", "[![:digit:]]", "[a-z]", "[x]", "[!x]", "[[:x]", "[[]"],
  // Uppercase members, ranges and escapes, which git's core.ignoreCase=true reading compares
  // as written or folds (rev71a F3).
  ["[A]", "[!A]", "[^B]", "[A-C]", "[!A-B]", "[Z-a]", "\\A", "[[:upper:]]", "[\\A]", "[aB]"],
].flat();
/** Line ends git keeps or drops (one CR before the LF): a CR kept is part of the name (rev71a F4). */
const ENDS = ["\r", "\r\r", "\r ", "\r  ", " \r", "\r\r ", "\\\r", "\r\0x"];
/** Lines with no pattern once `!` and a trailing `/` are read: they match nothing (rev71a F2). */
const EMPTY = ["!", "! ", "!\r", "!\r\r", "!/", "!\0x"];
const NAMES = ["a", "b", "ab", "abc", "ba", "c", "ac", "x.md", "a.b", "conf", "config", "ig"];
const ODD_NAMES = ["]", "]a", "-", "[", "xa", "1", ":", "A", "Ab", "AB", "B", "Ba", "a\r", "ab\r"];

function patternOf(rnd: (n: number) => number): string {
  const pick = <T>(list: readonly T[]): T => list[rnd(list.length)] as T;
  let p = rnd(2) === 0 ? `${pick(PREFIXES)}**${pick(AFTER_STARS)}` : "";
  for (let i = rnd(4); i > 0; i--) p += pick(PIECES);
  if (p === "") p = pick(NAMES);
  if (rnd(5) === 0) p = `!${p}`;
  if (rnd(5) === 0) p += "/";
  if (rnd(8) === 0) p += pick(ENDS);
  if (rnd(20) === 0) p = pick(EMPTY);
  return p;
}

interface Trial {
  folder: string;
  top: string[];
  sub: string[];
  paths: string[];
}

function makeTrials(root: string): Trial[] {
  const rnd = random(SEED);
  const pick = <T>(list: readonly T[]): T => list[rnd(list.length)] as T;
  const trials: Trial[] = [];
  for (let t = 0; t < TRIALS; t++) {
    const folder = `t${t}`;
    const top = Array.from({ length: 1 + rnd(3) }, () => patternOf(rnd));
    if (rnd(3) === 0) top.unshift(pick(["x.md", "*", "a*", "*.md"]));
    const sub = rnd(2) === 0 ? Array.from({ length: 1 + rnd(2) }, () => patternOf(rnd)) : [];
    mkdirSync(join(root, folder, "s"), { recursive: true });
    writeFileSync(join(root, folder, ".gitignore"), `${top.join("\n")}\n`);
    if (sub.length > 0) writeFileSync(join(root, folder, "s", ".gitignore"), `${sub.join("\n")}\n`);
    const wanted = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const segments = rnd(3) === 0 ? ["s"] : [];
      for (let d = 1 + rnd(4); d > 0; d--) segments.push(pick(rnd(4) === 0 ? ODD_NAMES : NAMES));
      wanted.add(segments.join("/"));
    }
    const paths: string[] = [];
    for (const path of wanted) {
      // A name already made a folder (or a file on the way) stays what it is.
      try {
        mkdirSync(join(root, folder, dirname(path)), { recursive: true });
        writeFileSync(join(root, folder, path), "x");
        paths.push(`${folder}/${path}`);
      } catch {}
    }
    trials.push({ folder, top, sub, paths });
  }
  return trials;
}

function gitIgnored(root: string, paths: readonly string[], ignoreCase: boolean): Set<string> {
  const out = execFileSync(
    "git",
    ["-c", `core.ignoreCase=${ignoreCase}`, "check-ignore", "--no-index", "--stdin", "-z"],
    { cwd: root, input: paths.join("\0"), encoding: "utf8", maxBuffer: 1 << 26 },
  );
  return new Set(out.split("\0").filter((l) => l !== ""));
}

describe("the door's ignore verdict against git check-ignore, on git's wildmatch corners", () => {
  it("agrees on every path of every trial", async () => {
    const base = tempDir();
    const root = join(base, "r");
    const home = join(base, "home");
    mkdirSync(home);
    mkdirSync(root);
    execFileSync("git", ["init", "-q", root]);
    const trials = makeTrials(root);
    const all = trials.flatMap((t) => t.paths);
    // The door ignores what git ignores with either core.ignoreCase (rev69c F6).
    const git = new Set([...gitIgnored(root, all, false), ...gitIgnored(root, all, true)]);
    const check = privatePaths(root, { signal: NO_DEADLINE, hidden: false, home, env: {} });
    const differing: string[] = [];
    let checked = 0;
    for (const trial of trials) {
      const wrong: string[] = [];
      for (const path of trial.paths) {
        checked++;
        const door = (await check(join(root, path))) !== undefined;
        if (door !== git.has(path))
          wrong.push(`${git.has(path) ? "git ignores" : "git keeps"} ${path}`);
      }
      if (wrong.length > 0)
        differing.push(`${JSON.stringify([trial.top, trial.sub])}: ${wrong.join(", ")}`);
    }
    // The trials ignore some paths and keep others: the comparison is not empty.
    expect(git.size).toBeGreaterThan(checked / 5);
    expect(git.size).toBeLessThan(checked);
    expect(differing.slice(0, 10)).toEqual([]);
  }, 120_000);
});
