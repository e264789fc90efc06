import { resolve } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import { stat } from "../_io.js";
import { checkpoint } from "../_pace.js";
import { expandHome, homeFolder, NOT_UTF8_PATH, toPosix } from "../_paths.js";
import { heldLinks, NAMED_GRACE, stopError } from "../repo-files/held-links.js";
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

/**
 * A folder the caller works from (the working folder, an extra root, a
 * ceiling) by its real path, as `cd` and git take it: the project root and
 * every ignore, exclude and hidden rule are found from there. Every entry
 * point that searches a project from a folder asks this once; the folder as
 * given is for display only. Before, a folder named through a link from
 * outside a repository into a subfolder of it found no repository (rev56a F3,
 * rev57a F3). `signal` is heard first.
 *
 * A folder whose given or real spelling holds U+FFFD is refused: that string
 * is Node's lossy decoding of a name that is not UTF-8, and the kernel resolves
 * it through whatever a repository commits under that name (a twin link made
 * your other clone, ~/.ssh or your home the project: rev58e F1).
 *
 * A folder named through a link that lies in a repository (not your home's
 * own) and leads out of it is refused, as a file you name through such a link
 * is ({@link heldLinks}): its real folder would be read as that repository's
 * (`--root vendor-lib`, committed `vendor-lib -> ../../home/private`: rev58d F1).
 * The working folder's own repository gets no pass: the folder named is the
 * question. A folder already real (process.cwd(), after `cd`) is not walked.
 *
 * @throws SyspromptError naming the folder as `what` (`cwd`, `--root / roots`).
 */
export async function realWorkingFolder(
  path: string,
  o: { signal?: AbortSignal | undefined; what?: string; home?: string } = {},
): Promise<string> {
  const what = o.what ?? "cwd";
  await checkpoint(o.signal);
  const real = await realpathOrSelf(path);
  if (path.includes("\uFFFD") || real.includes("\uFFFD")) {
    throw new SyspromptError("bad-option", `${what}: ${NOT_UTF8_PATH}: ${path}`);
  }
  if (real === path) return real;
  const home = await realpathOrSelf(o.home ?? homeFolder());
  const walked = await heldLinks([home], { signal: o.signal, grace: NAMED_GRACE })(path);
  if (walked.kind === "stopped") throw stopError(walked);
  if (walked.kind === "link-out") {
    throw new SyspromptError(
      "bad-argument",
      `${what}: ${path} leads through ${toPosix(walked.link)}, a link of the repository ${toPosix(walked.repository)}, to ${toPosix(walked.leads)}, out of that repository, and a repository's link leads only within it; name the folder itself`,
    );
  }
  return real;
}

/** Each extra root by its real path ({@link realWorkingFolder}): once, and not cwd (real too). */
export async function realRoots(
  dirs: readonly string[],
  cwd: string,
  o: { signal?: AbortSignal | undefined; home?: string } = {},
): Promise<string[]> {
  const real = await Promise.all(
    dirs.map((dir) => realWorkingFolder(dir, { ...o, what: "--root / roots" })),
  );
  return [...new Set(real)].filter((dir) => dir !== cwd);
}
