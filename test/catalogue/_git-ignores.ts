import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { tempDir, writeFiles } from "../api/_helpers.js";

/**
 * A git work tree `p` with `files` (paths from the folder above it, `p/…` and `home/…`), an agent
 * dir in `home`, and `core.ignoreCase` set when given: the options a render or the door takes.
 */
export function gitRepo(files: Record<string, string>, ignoreCase?: boolean) {
  const base = tempDir();
  writeFiles(base, { "home/.pi/agent/.keep": "", ...files });
  const cwd = join(base, "p");
  execFileSync("git", ["init", "-q", cwd]);
  if (ignoreCase !== undefined) {
    execFileSync("git", ["-C", cwd, "config", "core.ignoreCase", String(ignoreCase)]);
  }
  const home = join(base, "home");
  return { cwd, home, agentDir: join(home, ".pi", "agent"), env: {} };
}

/** Which of `paths` the real `git check-ignore --no-index` ignores in `cwd`, with `core.ignoreCase` as given. */
export function gitIgnores(cwd: string, paths: readonly string[], ignoreCase = false): string[] {
  try {
    const out = execFileSync(
      "git",
      ["-c", `core.ignoreCase=${ignoreCase}`, "check-ignore", "--no-index", "--stdin", "-z"],
      { cwd, input: paths.join("\0"), encoding: "utf8" },
    );
    return out.split("\0").filter((l) => l !== "");
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}
