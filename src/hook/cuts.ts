/**
 * What a tool call's paths past the hook's caps leave out, said as the
 * loader says its own cap (`touch-too-many`): a patch's files past
 * {@link MAX_PATCH_PATHS}, a command's paths past {@link MAX_SHELL_PATHS}, a
 * list's past {@link MAX_LISTED}. Before, they were dropped with nothing
 * said, and your rule for the 65th file of a patch never came (review rev79h F2).
 */
import { resolve } from "node:path";
import { expandHome } from "../_paths.js";
import { MAX_PATCH_PATHS, patchPathsCounted } from "../touch/patch-paths.js";
import { MAX_SHELL_PATHS, shellPathsLeft } from "../touch/shell-paths.js";
import type { Diagnostic } from "../types.js";
import { MAX_LISTED, type NamedPaths } from "./input.js";

/** The `touch-too-many` warning for what `named`'s caps leave out, or none. */
export async function pathCuts(
  named: NamedPaths,
  cwd: string,
  home: string,
): Promise<Diagnostic | undefined> {
  const parts: string[] = [];
  let total = 0;
  const cut = (n: number, what: string) => {
    if (n <= 0) return;
    total += n;
    parts.push(what);
  };
  cut(named.listedLeft ?? 0, `a list is read for its first ${MAX_LISTED}`);
  if (named.patch !== undefined) {
    cut(patchPathsCounted(named.patch).left, `a patch for its first ${MAX_PATCH_PATHS} files`);
  }
  const workdir = named.shell?.workdir;
  // A workdir longer than PATH_MAX left the command out already (`namedPaths`, rev79h F3).
  if (named.shell !== undefined) {
    const dir = workdir === undefined ? cwd : resolve(cwd, expandHome(workdir, home));
    const left = await shellPathsLeft(named.shell.command, dir, home, { relative: true });
    cut(left, `a command for its first ${MAX_SHELL_PATHS} paths`);
  }
  if (total === 0) return undefined;
  return {
    level: "warning",
    code: "touch-too-many",
    message: `${total} more path${total === 1 ? "" : "s"} of this call not looked at (${parts.join("; ")}): their instructions come when a later call names them`,
  };
}
