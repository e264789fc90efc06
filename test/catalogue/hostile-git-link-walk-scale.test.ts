import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ProbeRunner } from "../../src/gather/environment/index.js";
import { MAX_GIT_ENTRIES } from "../../src/gather/git/_links.js";
import { gatherGit } from "../../src/gather/git/index.js";

// Before git runs, every link among a repository's refs is resolved to see
// that it stays in the project. A count (MAX_GIT_ENTRIES) bounded how many,
// not what each costs: the repository writes the links, and a link to a link
// to … (38 of them, each to a path hundreds of folders deep) costs the
// kernel a walk of every target (glibc's realpath: one walk per component of
// each, 4 s a link at 1,000 deep). 9,900 such links in .git/refs/heads kept
// `render --git` checking for over 5 minutes: the CLI exited at its deadline,
// a long-lived host (serve, watch, the library) went on after the render had
// returned. The check now hears the render's signal and has the time of one
// git command (GIT_TIMEOUT_MS, `timeoutMs`), past which the repository is
// refused with `git-timeout`.

vi.setConfig({ testTimeout: 60_000 });

const DEPTH = 1_000;
const CHAIN = 38;
/** Even at a few ms a link (a realpath that walks each target once), this many take seconds. */
const LINKS = 2_000;

// One repository for both cases: its links take seconds to make and to remove.
let base = "";
let cwd = "";
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "sysprompt-git-links-")));
  cwd = slowRefs(join(base, "project"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A `.git` folder whose refs/heads hold LINKS links, each to a chain of CHAIN links to a deep folder. */
function slowRefs(cwd: string): string {
  const git = join(cwd, ".git");
  const heads = join(git, "refs", "heads");
  mkdirSync(heads, { recursive: true });
  mkdirSync(join(git, "objects"), { recursive: true });
  writeFileSync(join(git, "HEAD"), "ref: refs/heads/main\n");
  const deep = join(cwd, ...Array.from({ length: DEPTH }, () => "d"));
  mkdirSync(deep, { recursive: true });
  for (let i = 0; i < CHAIN; i++) {
    symlinkSync(i === CHAIN - 1 ? deep : join(deep, `l${i + 1}`), join(deep, `l${i}`));
  }
  for (let i = 0; i < LINKS; i++) symlinkSync(join(deep, "l0"), join(heads, `r${i}`));
  return cwd;
}

/** git is never run: the check refuses the repository first. */
const noGit: ProbeRunner = async () => {
  throw new Error("git ran");
};

describe("hostile repository: links among the refs that are slow to resolve", () => {
  it("the check stops at the time of one git command, with git-timeout", async () => {
    expect(LINKS).toBeLessThan(MAX_GIT_ENTRIES);
    const started = Date.now();
    const result = await gatherGit({
      cwd,
      env: process.env,
      exclude: [cwd],
      run: noGit,
      timeoutMs: 300,
    });
    const took = Date.now() - started;
    expect(result.git).toBeNull();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ level: "warning", code: "git-timeout", path: join(cwd, ".git") }),
    ]);
    // Before: every link resolved, minutes.
    expect(took).toBeLessThan(5_000);
  });

  it("stops when the render stops waiting, not after", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const result = await gatherGit({
      cwd,
      env: process.env,
      exclude: [cwd],
      run: noGit,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    expect(result.diagnostics.map((d) => d.code)).toEqual(["git-timeout"]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
