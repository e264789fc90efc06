import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

/**
 * A new folder `base` holding a project `p` (a git root with an AGENTS.md, `# P`) and an empty
 * home folder, `home`: where {@link cliAt} is run.
 */
export function cliProject(): { base: string; p: string; home: string } {
  const base = tempDir();
  const p = join(base, "p");
  mkdirSync(join(p, ".git"), { recursive: true });
  mkdirSync(join(base, "home"));
  writeFileSync(join(p, "AGENTS.md"), "# P\n");
  return { base, p, home: join(base, "home") };
}

/**
 * The CLI run in `cwd` with `home` as your home folder and no environment, on Linux: its exit
 * code, its stdout (`out`), its stderr (`err`) and both in the order written (`all`).
 */
export async function cliAt(argv: string[], cwd: string, home: string) {
  let out = "";
  let err = "";
  let all = "";
  const code = await run(argv, {
    stdout: (t) => {
      out += t;
      all += t;
    },
    stderr: (t) => {
      err += t;
      all += t;
    },
    cwd,
    env: {},
    home,
    machine: { platform: "linux", arch: "x64" },
  });
  return { code, out, err, all };
}
