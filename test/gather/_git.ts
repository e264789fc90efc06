import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** The machine's PATH: the real git is found on it (and only on its absolute entries). */
export const SYSTEM = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/** Runs the real git in `dir` for a fixture, with a pinned identity and clock and no user config. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: {
      PATH: SYSTEM.PATH,
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.com",
      GIT_AUTHOR_DATE: "2026-01-15T10:00:00Z",
      GIT_COMMITTER_DATE: "2026-01-15T10:00:00Z",
    },
  });
}

/** A new repository at `dir` on `branch` with one commit whose subject is `subject`. */
export function repoAt(dir: string, branch: string, subject: string, ...init: string[]): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", branch, ...init);
  writeFileSync(join(dir, "a.txt"), `${subject}\n`);
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", subject);
  return dir;
}

/**
 * Copies of fixtures that many cases of a file start from: each is built once, on first
 * use, by `build(dir)` (for a repository, a dozen git processes), and copied after that,
 * which costs a folder copy. With git's identity and clock pinned, a copied repository
 * holds the commits git would make (the same ids). Call it at the top of a test file: what
 * it built is removed after that file.
 */
export function fixtureCopies(): (
  dir: string,
  key: string,
  build: (dir: string) => void,
) => string {
  const built = new Map<string, string>();
  let store: string | undefined;
  afterAll(() => {
    if (store !== undefined) rmSync(store, { recursive: true, force: true });
  });
  return (dir, key, build) => {
    let source = built.get(key);
    if (source === undefined) {
      store ??= realpathSync(mkdtempSync(join(tmpdir(), "sysprompt-test-fixtures-")));
      source = join(store, String(built.size));
      build(source);
      built.set(key, source);
    }
    cpSync(source, dir, { recursive: true });
    return dir;
  };
}

/** `repoAt`, built by git once per file for each branch and subject and copied after that. */
export function repoCopies(): (dir: string, branch: string, subject: string) => string {
  const copy = fixtureCopies();
  return (dir, branch, subject) =>
    copy(dir, `${branch}\0${subject}`, (source) => repoAt(source, branch, subject));
}
