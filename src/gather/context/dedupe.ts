import type { Diagnostic } from "../../types.js";
import { splitParagraphs } from "../_markdown.js";

/**
 * Most paragraph comparisons dedupe makes (each file against each later kept
 * file that could hold it). Comparing every file with every later one is
 * quadratic in the files: a thousand files sharing a long run of paragraphs
 * took seconds. Past this, the files not yet compared are simply kept.
 */
export const MAX_DEDUPE_WORK = 4_000_000;

/** What dedupe compares: a file's path (for messages) and its text. */
export interface DedupeInput {
  path: string;
  content: string;
}

/**
 * Drops context files that a later file repeats. `files` are in prompt order
 * (farthest first). Each file is split into paragraphs (blank-line separated,
 * never inside a fenced code block, each trimmed); a file is dropped when a
 * *later* file contains its whole paragraph list as one contiguous run — a
 * copy of the repository's AGENTS.md in a subfolder, or a user file the
 * project pasted in. Empty files are never dropped. Each dropped file gets an
 * `info` naming a kept file that contains it.
 */
export function dedupeContextFiles<T extends DedupeInput>(
  files: readonly T[],
): { files: T[]; diagnostics: Diagnostic[] } {
  const { dropped: _, ...result } = dedupeWithDropped(files);
  return result;
}

/** A context file left out by dedupe, and the kept file that holds all of it. */
export interface DroppedContextFile {
  path: string;
  containedIn: string;
}

/** {@link dedupeContextFiles}, also saying which files were dropped (for `sysprompt explain`). */
export function dedupeWithDropped<T extends DedupeInput>(
  files: readonly T[],
): { files: T[]; diagnostics: Diagnostic[]; dropped: DroppedContextFile[] } {
  // Paragraphs become small integers, so comparing runs is comparing numbers.
  const ids = new Map<string, number>();
  const lists = files.map((f) =>
    splitParagraphs(f.content).map((p) => {
      let id = ids.get(p);
      if (id === undefined) {
        id = ids.size;
        ids.set(p, id);
      }
      return id;
    }),
  );
  // From the last file back, each compared with the later files kept so far.
  // Containment is transitive, so a file inside a dropped one is inside the
  // kept file that contains that one: the result is the same as comparing
  // with every later file, and the file named is one that stays.
  const kept: number[] = [];
  const containedIn = new Map<number, number>();
  // Kept files by the paragraphs they hold: a host must hold the file's first one.
  const holding = new Map<number, number[]>();
  let work = 0;
  let spent = false;
  for (let i = files.length - 1; i >= 0; i--) {
    const list = lists[i] ?? [];
    let host: number | undefined;
    for (const j of list.length === 0 || spent ? [] : (holding.get(list[0] ?? -1) ?? [])) {
      const haystack = lists[j] ?? [];
      work += haystack.length + list.length;
      if (work > MAX_DEDUPE_WORK) {
        spent = true;
        break;
      }
      if (containsRun(haystack, list)) {
        host = j;
        break;
      }
    }
    if (host !== undefined) {
      containedIn.set(i, host);
      continue;
    }
    kept.unshift(i);
    for (const id of new Set(list)) {
      const at = holding.get(id);
      // Newest first, as `kept` is searched: the nearest later file is named.
      if (at) at.unshift(i);
      else holding.set(id, [i]);
    }
  }
  const diagnostics: Diagnostic[] = [];
  if (spent) {
    diagnostics.push({
      level: "info",
      code: "context-dedupe-cut",
      message: `comparing the files' paragraphs took more than ${MAX_DEDUPE_WORK} steps; the files not yet compared are kept, even if another repeats them`,
    });
  }
  const dropped: DroppedContextFile[] = [];
  for (const [i, host] of [...containedIn].sort((a, b) => a[0] - b[0])) {
    const path = files[i]?.path ?? "";
    const containedIn = files[host]?.path ?? "";
    diagnostics.push({
      level: "info",
      code: "context-duplicate",
      message: `not loaded: ${containedIn} contains all of it, in the same order`,
      path,
    });
    dropped.push({ path, containedIn });
  }
  return { files: kept.map((i) => files[i] as T), diagnostics, dropped };
}

/** True when `needle` occurs in `haystack` as one contiguous run (Knuth–Morris–Pratt, linear). */
export function containsRun(haystack: readonly number[], needle: readonly number[]): boolean {
  if (needle.length === 0) return true;
  if (needle.length > haystack.length) return false;
  const fail: number[] = new Array(needle.length).fill(0);
  for (let i = 1, k = 0; i < needle.length; i++) {
    while (k > 0 && needle[i] !== needle[k]) k = fail[k - 1] ?? 0;
    if (needle[i] === needle[k]) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < haystack.length; i++) {
    while (k > 0 && haystack[i] !== needle[k]) k = fail[k - 1] ?? 0;
    if (haystack[i] === needle[k]) k++;
    if (k === needle.length) return true;
  }
  return false;
}
