import { resolve } from "node:path";
import { stat } from "../_io.js";
import { expandHome } from "../_paths.js";
import { SyspromptError } from "../types.js";

/**
 * Checks and resolves the extra workspace roots (`roots`, CLI `--root`):
 * `~` from `home`, relative paths from `cwd`. Each must be an existing folder;
 * anything else is the caller's mistake ({@link SyspromptError}). A root
 * given twice, or equal to cwd, is listed once (cwd is not an "other" folder).
 */
export async function resolveRoots(
  roots: readonly string[] | undefined,
  cwd: string,
  home: string,
  names: { flag: string; option: string } = { flag: "--root", option: "roots" },
): Promise<string[]> {
  if (roots === undefined) return [];
  if (!Array.isArray(roots)) {
    throw new SyspromptError("bad-option", `${names.option}: expected an array of folder paths`);
  }
  const out: string[] = [];
  for (const root of roots) {
    if (typeof root !== "string" || root.trim() === "") {
      throw new SyspromptError(
        "bad-option",
        `${names.option}: expected folder paths, got ${JSON.stringify(root)}`,
      );
    }
    const path = resolve(cwd, expandHome(root, home));
    let isDir: boolean;
    try {
      isDir = (await stat(path)).isDirectory();
    } catch (error) {
      throw new SyspromptError(
        "bad-argument",
        `${names.flag} / ${names.option}: "${root}" does not exist (${(error as NodeJS.ErrnoException).code ?? "unreadable"}); pass an existing folder`,
        { cause: error },
      );
    }
    if (!isDir) {
      throw new SyspromptError(
        "bad-argument",
        `${names.flag} / ${names.option}: "${root}" is not a folder; pass the folder that holds the files`,
      );
    }
    if (path !== cwd && !out.includes(path)) out.push(path);
  }
  return out;
}
