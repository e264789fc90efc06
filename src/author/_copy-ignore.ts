import { join } from "node:path";
import {
  type IgnoreRules,
  isIgnoredInKeptFolder,
  newPatternBudget,
  type PatternBudget,
} from "../_gitignore.js";
import { isWithin } from "../_paths.js";
import { withIgnoreFile } from "../repo-files/index.js";

/**
 * Which folders and files a copy leaves out because git ignores them (build
 * output, caches, a dev database: `dist/`, `.bench/`, `dev.db`), and which it
 * copies all the same because a render reads them whatever git says.
 */
export interface IgnoredFolders {
  /** Folders the render walks as cwd is (cwd, extra roots): they and every folder on the way to them are copied. */
  keep: readonly string[];
  /**
   * Folders copied whole, with every folder on the way to them (skill
   * paths): a render reads below them by rules of its own.
   */
  whole: readonly string[];
  /**
   * Names a render reads wherever they are, by its own rules: a folder
   * (`.pi`, `.cursor`, `.claude`…) is copied whole, a file (`AGENTS.md`,
   * `CLAUDE.local.md`, `.cursorrules`…) copied though git ignores it.
   */
  keepNames: ReadonlySet<string>;
}

/** The ignore rules of one folder of the copy and what they are checked against. */
export interface IgnoreState {
  rules: IgnoreRules | undefined;
  /** The folder relative to the copied one, "/"-separated, "" for that folder itself. */
  rel: string;
  budget: PatternBudget;
  /** True inside a folder copied whole: nothing below it is left out. */
  whole?: boolean;
}

/** An ignore file read no further than this: real ones are a few KiB. */
const MAX_IGNORE_BYTES = 256 * 1024;

/** The ignore files a folder can hold, in rising precedence, as the workspace tree reads them. */
const IGNORE_FILES = [".gitignore", ".ignore"] as const;

/** The state at the copied folder: its repository's `.git/info/exclude`, when it has one. */
export async function rootIgnoreState(dir: string): Promise<IgnoreState> {
  const budget = newPatternBudget();
  const rules = await withFile(undefined, join(dir, ".git", "info", "exclude"), "", budget);
  return { rules, rel: "", budget };
}

/** The state of the folder `dir` that `state` starts (see {@link childState}): its own ignore files added. */
export async function folderIgnoreState(state: IgnoreState, dir: string): Promise<IgnoreState> {
  // Nothing below a folder copied whole is asked about.
  if (state.whole) return state;
  let rules = state.rules;
  for (const name of IGNORE_FILES) {
    rules = await withFile(rules, join(dir, name), state.rel, state.budget);
  }
  return { ...state, rules };
}

/**
 * Whether the subfolder (`folder`) or regular file `name` of the folder
 * `state` describes is left out: git ignores it (its parents were copied, so
 * only its own name can match), its name is not one a render reads anyway
 * (an ignore file is one: git reads it, ignored or not), and no folder the
 * render works in is it or below it.
 */
export function leavesOut(
  state: IgnoreState,
  name: string,
  path: string,
  skip: IgnoredFolders,
  folder: boolean,
): boolean {
  if (state.whole || skip.keepNames.has(name)) return false;
  if (!folder && (IGNORE_FILES as readonly string[]).includes(name)) return false;
  if (!isIgnoredInKeptFolder(state.rules, `${state.rel}${name}${folder ? "/" : ""}`)) return false;
  return ![...skip.keep, ...skip.whole].some((k) => isWithin(k, path));
}

/** The state a subfolder starts from (before its own ignore files), for {@link folderIgnoreState}. */
export function childState(
  state: IgnoreState,
  name: string,
  path: string,
  skip: IgnoredFolders,
): IgnoreState {
  const whole =
    state.whole === true || skip.keepNames.has(name) || skip.whole.some((w) => isWithin(path, w));
  return { ...state, rel: `${state.rel}${name}/`, whole };
}

async function withFile(
  rules: IgnoreRules | undefined,
  path: string,
  base: string,
  budget: PatternBudget,
): Promise<IgnoreRules | undefined> {
  // Read as the door and the workspace tree read it (bytes; git never follows a linked ignore
  // file; a FIFO or a device is never opened to block): before, its decoded text made a NUL the
  // whole file none and a lone CR a line end, so the copy left out or kept what git does not (fx77d).
  try {
    return await withIgnoreFile(rules, path, base.replace(/\/$/, ""), budget, MAX_IGNORE_BYTES);
  } catch {
    // A pattern the matcher cannot compile loses this file's rules only: more is
    // copied, which costs room in the copy, never a wrong prompt.
    return rules;
  }
}
