import { join, parse, sep } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import { isWithin } from "../_paths.js";
import type { Reach } from "./reach.js";

/**
 * `path` spelled so that it lies under the project's root, when one of the
 * folders on its way is the project's or inside it by its real path (the
 * checkout reached through a link of the user's: `~/work/p/…` with `~/work`
 * leading to `/data/work`), else undefined. Spelled under `reach.root` when
 * it is written there; else under `reach.realRoot`, from the first folder on
 * its way whose real path is inside it. The last name is kept as written:
 * whether it is a link out is for the reader (the door) or the writer
 * (`writeIfChanged`) to judge.
 */
export async function intoProject(
  path: string,
  reach: Pick<Reach, "root" | "realRoot">,
): Promise<string | undefined> {
  if (isWithin(path, reach.root)) return path;
  const top = parse(path).root;
  const names = path
    .slice(top.length)
    .split(sep)
    .filter((n) => n !== "");
  for (let i = 1; i < names.length; i++) {
    const real = await realpathOrSelf(join(top, ...names.slice(0, i)));
    if (isWithin(real, reach.realRoot)) return join(real, ...names.slice(i));
  }
  return undefined;
}
