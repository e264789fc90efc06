import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev71d F5: `export --out /proc/self/cwd/e.md` wrote the project's file and printed
// `codex -c model_instructions_file=/proc/self/cwd/e.md`, a path that names the `e.md` of whatever
// folder codex starts in (a repository's, from a subfolder of it); `render -o /proc/self/cwd/x.md`
// wrote through that magic link. A `-o`/`--out` whose way leads through `/proc` or `/dev/fd`, as
// written or by a link on it, is now refused, as such a `PATH` entry is (`PROCESS_RELATIVE`).

const LINUX = process.platform === "linux";

function project() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent", "mine"])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
  symlinkSync("/proc/self/cwd", join(root, "mine/here"));
  return root;
}

describe("hostile-output-process-relative: no -o or --out through /proc or /dev/fd", () => {
  it.skipIf(!LINUX).each([
    ["export", "--out", "/proc/self/cwd/e.md", "/proc"],
    ["export", "--out", "/dev/fd/0/e.md", "/dev/fd"],
    ["render", "-o", "/proc/self/cwd/x.md", "/proc"],
    ["export", "--out", "mine/here/e.md", "/proc"],
  ])("%s %s %s is refused, exit 2, nothing written", async (command, flag, out, through) => {
    const root = project();
    const path = out.startsWith("/") ? out : join(root, out);
    const args =
      command === "export" ? ["export", "--agent", "codex", flag, path] : [command, flag, path];
    // The process stands in the project, as the review's shell did: `/proc/self/cwd` is `p`.
    const saved = process.cwd();
    process.chdir(join(root, "p"));
    let run: Awaited<ReturnType<typeof cli>>;
    try {
      run = await cli(root, join(root, "p"), args, {
        env: { XDG_CACHE_HOME: join(root, "cache") },
      });
    } finally {
      process.chdir(saved);
    }
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `${path}: its way leads through ${through}, which names another file`,
    );
    expect(run.stdout).toBe("");
    expect(existsSync(join(root, "p/e.md"))).toBe(false);
    expect(existsSync(join(root, "p/x.md"))).toBe(false);
  });

  it.skipIf(!LINUX)("a path of the project's own is written", async () => {
    const root = project();
    const run = await cli(
      root,
      join(root, "p"),
      ["export", "--agent", "codex", "--out", join(root, "p/e.md")],
      {
        env: { XDG_CACHE_HOME: join(root, "cache") },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`codex -c model_instructions_file=${join(root, "p/e.md")}\n`);
  });
});
