/** The paths one tool call touched, resolved: on the hook's quick path (no loading). */

import { resolve } from "node:path";
import { pushAll } from "../_arrays.js";
import { expandHome } from "../_paths.js";
import { patchPaths } from "../touch/patch-paths.js";
import { shellPaths } from "../touch/shell-paths.js";
import type { NamedPaths } from "./input.js";

/**
 * The absolute paths `named` touched, for a call in `cwd`: its file
 * arguments as written (`~` expanded, relative ones against cwd), the paths
 * its shell command names that exist (relative ones too, against its
 * working folder; nothing is evaluated), and the files its patch names.
 */
export async function touchedPaths(
  named: NamedPaths,
  cwd: string,
  home: string,
): Promise<string[]> {
  const at = (p: string, dir = cwd) => resolve(dir, expandHome(p, home));
  const out = named.files.map((p) => at(p));
  if (named.shell) {
    const dir = named.shell.workdir === undefined ? cwd : at(named.shell.workdir);
    pushAll(out, await shellPaths(named.shell.command, dir, home, { relative: true }));
  }
  if (named.patch !== undefined)
    pushAll(
      out,
      patchPaths(named.patch).map((p) => at(p)),
    );
  return [...new Set(out)];
}
