import type { Diagnostic } from "../../types.js";
import { splitParagraphs } from "../_markdown.js";

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
  for (let i = files.length - 1; i >= 0; i--) {
    const list = lists[i] ?? [];
    const host =
      list.length === 0 ? undefined : kept.find((j) => containsRun(lists[j] ?? [], list));
    if (host === undefined) kept.unshift(i);
    else containedIn.set(i, host);
  }
  const diagnostics: Diagnostic[] = [];
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
