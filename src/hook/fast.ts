/**
 * The hook's quick answer: whether a call's paths may bring anything in,
 * from the session's memo and a few stats, before anything else is loaded.
 * It only ever answers "nothing new" when the full loading would find
 * nothing to give and nothing to say; any doubt is "look" (false).
 */
import { statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { isWithin, toPosix } from "../_paths.js";
import { realpathSyncLinear } from "../_realpath.js";
import { contextKey } from "../gather/context/touch-keys.js";
import type { HookMemo } from "./snapshot.js";

/** Most paths, and most folders per path, the quick answer looks at; more is "look". */
const MAX_PATHS = 64;
const MAX_FOLDERS = 64;
/** Most files a memo keeps as tried on every rule. */
export const MAX_CHECKED = 256;

/**
 * A file's stamp, through links: what changes when a folder gains, loses or
 * renames an entry, or a file is replaced or edited. "-" when there is
 * nothing there (or it cannot be looked at).
 */
export function stampOf(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}:${s.size}`;
  } catch {
    // Gone, a loop, no permission: the stamp of nothing, which a later one compares against.
    return "-";
  }
}

/** The watched files of a memo: the project root (its `.git` coming or going) and cwd's `.gemini/settings.json`. */
export function watchedPaths(realRoot: string, cwd: string): string[] {
  return [realRoot, join(cwd, ".gemini", "settings.json")];
}

/** A path resolved for the memo: its real path and whether it is a folder; undefined when it does not resolve. */
export function resolved(abs: string): { real: string; isDir: boolean } | undefined {
  try {
    const real = realpathSyncLinear(abs);
    return { real, isDir: statSync(real).isDirectory() };
  } catch {
    // Missing (a file about to be written), a loop, no permission: the full loading decides.
    return undefined;
  }
}

/**
 * The real folders from `realRoot` down to `dir` that a context file is
 * looked for in: not cwd or the folders above it (the prompt has theirs).
 */
export function searchedFolders(
  dir: string,
  memo: Pick<HookMemo, "realRoot" | "realCwd">,
): string[] {
  const parts = relative(memo.realRoot, dir)
    .split(sep)
    .filter((p) => p !== "");
  const out: string[] = [];
  for (let depth = 0; depth <= parts.length; depth++) {
    const folder = join(memo.realRoot, ...parts.slice(0, depth));
    if (!isWithin(memo.realCwd, folder)) out.push(folder);
  }
  return out;
}

/**
 * True when none of `paths` (absolute) can bring in anything `delivered`
 * lacks, by `memo`: each resolves outside the project, or every folder it
 * is searched through was given already or is stamped empty and unchanged,
 * and every glob rule not given yet was tried on it or cannot match it.
 * `contextFiles` false: no folders are searched.
 */
export function nothingNew(
  paths: readonly string[],
  memo: HookMemo,
  delivered: ReadonlySet<string>,
  contextFiles: boolean,
): boolean {
  if (paths.length > MAX_PATHS) return false;
  for (const [path, stamp] of Object.entries(memo.watch)) {
    if (stampOf(path) !== stamp) return false;
  }
  const open = memo.rules.filter((r) => !delivered.has(r.key));
  for (const abs of paths) {
    const target = resolved(abs);
    if (target === undefined) return false;
    if (!isWithin(target.real, memo.realRoot)) continue;
    if (contextFiles) {
      const folders = searchedFolders(target.isDir ? target.real : dirname(target.real), memo);
      if (folders.length > MAX_FOLDERS) return false;
      for (const folder of folders) {
        if (delivered.has(contextKey(folder))) continue;
        const stamp = memo.empty[folder];
        if (stamp === undefined || stampOf(folder) !== stamp) return false;
      }
    }
    if (open.length > 0 && !memo.checked.includes(target.real)) {
      if (open.some((rule) => mayMatch(rule, target.real))) return false;
    }
  }
  return true;
}

/** Whether `rule` may match the file at `real` (see `globSuffixes`). */
export function mayMatch(rule: HookMemo["rules"][number], real: string): boolean {
  if (rule.suffixes === undefined) return true;
  const rel = toPosix(relative(rule.base, real));
  // Outside the rule's folder: its globs match nothing there.
  if (rel === "" || rel === ".." || rel.startsWith("../") || rel.startsWith("/")) return false;
  if (!/^[\x20-\x7e]*$/.test(rel)) return true;
  const segments = rel.toLowerCase().split("/");
  return segments.some((s) => rule.suffixes?.some((end) => s.endsWith(end)));
}
