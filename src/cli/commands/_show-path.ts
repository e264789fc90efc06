import { isAbsolute, relative } from "node:path";
import { toPosix } from "../../_paths.js";

/** A path under the working directory relative to it, as typed; any other absolute. */
export function showPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return toPosix(rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel);
}
