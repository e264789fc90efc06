import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// rev66d F7: a checkout's `.cache` linked to /proc, with the cache folder in the checkout
// (XDG_CACHE_HOME=$PWD/.cache, or HOME=$PWD/.home holding `.cache -> /proc`, as CI jobs set
// them). Node's recursive mkdir of `.cache/sysprompt` spun for ever in C++ (mkdir says ENOENT
// under /proc, a folder that exists), deaf to SIGTERM: export and explain --simulate ran at
// 100% CPU until SIGKILL. Now each folder is one plain mkdir, and ENOENT is a refusal. Since
// rev107e F2 the checkout's own `.cache` link, below the working folder, is refused before any
// mkdir (a cache never lives through a link in the folder you render); `.home/.cache` under
// HOME=$PWD/.home (a working folder holding your home is not judged so) still meets the mkdir.

/** Past this the child is killed (SIGKILL: the loop hears no other signal); the bug never ends. */
const KILL_AFTER_MS = 20_000;
const TEST_MS = KILL_AFTER_MS + 20_000;

/** The built CLI in a checkout whose `.cache` and `.home/.cache` link to /proc. */
function inCheckout(args: string[], env: (project: string) => Record<string, string>) {
  const root = tempDir();
  const project = join(root, "project");
  mkdirSync(join(project, ".home"), { recursive: true });
  writeFileSync(join(project, "AGENTS.md"), "Be brief.\n");
  symlinkSync("/proc", join(project, ".cache"));
  symlinkSync("/proc", join(project, ".home", ".cache"));
  const started = Date.now();
  const child = spawnSync(process.execPath, [BUILT_CLI, ...args], {
    cwd: project,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: join(root, "home"), ...env(project) },
    timeout: KILL_AFTER_MS,
    killSignal: "SIGKILL",
  });
  return {
    project,
    ms: Date.now() - started,
    signal: child.signal,
    code: child.status,
    stderr: child.stderr,
  };
}

const XDG_IN_CHECKOUT = (project: string) => ({ XDG_CACHE_HOME: join(project, ".cache") });
const HOME_IN_CHECKOUT = (project: string) => ({ HOME: join(project, ".home") });

describe.skipIf(process.platform !== "linux")(
  "catalogue: the cache folder in a checkout whose .cache links to /proc",
  () => {
    beforeAll(ensureBuilt, 120_000);

    it.each([
      ["XDG_CACHE_HOME=$PWD/.cache", XDG_IN_CHECKOUT],
      ["HOME=$PWD/.home", HOME_IN_CHECKOUT],
    ])(
      "export --agent codex with %s: refused (exit 2), not a spin",
      { timeout: TEST_MS },
      (_name, env) => {
        const run = inCheckout(["export", "--agent", "codex"], env);
        const cache = join(run.project, env === XDG_IN_CHECKOUT ? ".cache" : ".home/.cache");
        expect({ signal: run.signal, code: run.code, stderr: run.stderr }).toEqual({
          signal: null,
          code: 2,
          stderr:
            env === XDG_IN_CHECKOUT
              ? `sysprompt: export: ${cache}: a symbolic link in the working folder ${run.project}, on the way to sysprompt's cache folder ${cache}/sysprompt; in the folder you work in, every folder down to the cache folder must be a real folder (the repository may ship a link that leads anywhere): set XDG_CACHE_HOME to a folder of yours, or pass --out with a path of yours\n`
              : `sysprompt: export: ${cache}/sysprompt: cannot create it: the folder above it exists but takes no new folder (ENOENT); pass --out with a path of yours\n`,
        });
      },
    );

    it("explain --simulate: refused (exit 2), not a spin", { timeout: TEST_MS }, () => {
      const run = inCheckout(["explain", "--simulate"], HOME_IN_CHECKOUT);
      expect({ signal: run.signal, code: run.code }).toEqual({ signal: null, code: 2 });
      expect(run.stderr).toContain(
        `${run.project}/.home/.cache/sysprompt: cannot create it: the folder above it exists but takes no new folder (ENOENT)`,
      );
      const linked = inCheckout(["explain", "--simulate"], XDG_IN_CHECKOUT);
      expect({ signal: linked.signal, code: linked.code }).toEqual({ signal: null, code: 2 });
      expect(linked.stderr).toContain(
        `${linked.project}/.cache: a symbolic link in the working folder`,
      );
    });
  },
);
