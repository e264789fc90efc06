import { join, resolve, sep } from "node:path";

/** A leading `~` (alone, or followed by a separator) means the home folder. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(home, path.slice(2));
  return path;
}

/** Resolves `~`, `~/x` against `home` and anything else relative against `cwd`. */
export function resolveUserPath(path: string, cwd: string, home: string): string {
  return resolve(cwd, expandHome(path, home));
}

/**
 * Forward slashes, so prompts read the same on every platform. Only where a backslash
 * separates folders (Windows): on POSIX it is an ordinary character of a file
 * name and must stay, or the path names another file. `separator` is the
 * platform's, injectable for tests.
 */
export function toPosix(path: string, separator: string = sep): string {
  return separator === "\\" ? path.replaceAll("\\", "/") : path;
}
