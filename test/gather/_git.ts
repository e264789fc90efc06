import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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
