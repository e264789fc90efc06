import { join, resolve } from "node:path";

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
