import { run } from "../../src/cli/main.js";

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
