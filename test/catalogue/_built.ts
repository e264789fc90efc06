import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
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

/** Builds dist/ unless it is newer than every source file. */
export function ensureBuilt(): void {
  if (newestMtime(["src", "helpers", "prompts"]) >= builtAt()) {
    execFileSync("npm", ["run", "build"], { cwd: REPO, stdio: "ignore" });
  }
}
