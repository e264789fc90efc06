import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Some catalogue cases run the built package in a child process (as another
// user, or from a folder that was deleted). The build must then be of this
// source: it is rebuilt when a source file is newer than it.

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** The built library's entry point. */
export const BUILT_ENTRY = join(REPO, "dist", "src", "index.js");
/** The built CLI. */
export const BUILT_CLI = join(REPO, "dist", "src", "cli", "bin.js");

function newestMtime(dirs: readonly string[]): number {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of readdirSync(join(REPO, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) {
        newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

/** The last file a build writes; 0 when there is no build. */
function builtAt(): number {
  return (
    statSync(join(REPO, "dist", "builtin-frontmatter.json"), { throwIfNoEntry: false })?.mtimeMs ??
    0
  );
}

const isStale = () => newestMtime(["src", "helpers", "prompts"]) >= builtAt();

/** Test files run in parallel: one builds while the others wait, then find the build fresh. */
const LOCK = join(
  tmpdir(),
  `sysprompt-build-${createHash("sha256").update(REPO).digest("hex").slice(0, 12)}.lock`,
);
/** A lock older than this was left by a run that died: a build takes about 10 s. */
const STALE_LOCK_MS = 120_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds dist/ unless it is newer than every source file. */
export function ensureBuilt(): void {
  if (!isStale()) return;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      else sleep(200);
    }
  }
  try {
    if (isStale()) execFileSync("npm", ["run", "build"], { cwd: REPO, stdio: "ignore" });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
