/**
 * Line diffs of texts a repository controls (a watched section, a golden,
 * an ejected section), bounded in time. A line diff costs its length times
 * the number of lines that differ: two 240 KB files of short lines that
 * share little held `watch` for minutes. Past its {@link DiffBudget} (250 ms
 * a diff, and one total for a view's or report's diffs) the diff is the whole
 * old text removed and the whole new text added: longer to read, the same
 * change.
 */
import {
  formatPatch,
  type HeaderOptions,
  type StructuredPatch,
  type StructuredPatchHunk,
  structuredPatch,
} from "diff";
import { type DiffBudget, diffBudget, withinBudget } from "./_diff-budget.js";

export interface PatchOptions {
  /** Lines of context around each change (default 4, jsdiff's). */
  context?: number;
  /** Header lines of {@link twoFilesPatch}'s text (jsdiff's `headerOptions`). */
  headerOptions?: HeaderOptions;
  /** What the diffs this one belongs to have left (default: a fresh one's, for this diff alone). */
  budget?: DiffBudget;
}

/** jsdiff's `structuredPatch` of two texts, or the whole-text one past the budget's time or size. */
export function linePatch(
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
  oldHeader: string | undefined,
  newHeader: string | undefined,
  options: PatchOptions = {},
): StructuredPatch {
  const found = withinBudget(options.budget ?? diffBudget(), oldText, newText, (timeout) =>
    structuredPatch(oldName, newName, oldText, newText, oldHeader, newHeader, {
      ...(options.context !== undefined ? { context: options.context } : {}),
      timeout,
    }),
  );
  return found ?? wholeReplaced(oldName, newName, oldText, newText, oldHeader, newHeader);
}

/** jsdiff's `createTwoFilesPatch`, bounded as {@link linePatch} is. */
export function twoFilesPatch(
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
  oldHeader: string | undefined,
  newHeader: string | undefined,
  options: PatchOptions = {},
): string {
  const patch = linePatch(oldName, newName, oldText, newText, oldHeader, newHeader, options);
  return formatPatch(patch, options.headerOptions);
}

/** The patch that removes every line of `oldText` and adds every line of `newText`. */
function wholeReplaced(
  oldFileName: string,
  newFileName: string,
  oldText: string,
  newText: string,
  oldHeader: string | undefined,
  newHeader: string | undefined,
): StructuredPatch {
  const hunks: StructuredPatchHunk[] = [];
  if (oldText !== newText) {
    const old = linesOf(oldText, "-");
    const added = linesOf(newText, "+");
    hunks.push({
      oldStart: old.count > 0 ? 1 : 0,
      oldLines: old.count,
      newStart: added.count > 0 ? 1 : 0,
      newLines: added.count,
      lines: [...old.lines, ...added.lines],
    });
  }
  return { oldFileName, newFileName, oldHeader, newHeader, hunks };
}

/** A text's lines with `mark` before each, and git's marker when its last line has no line break. */
function linesOf(text: string, mark: string): { lines: string[]; count: number } {
  if (text === "") return { lines: [], count: 0 };
  const open = !text.endsWith("\n");
  const lines = (open ? text : text.slice(0, -1)).split("\n").map((l) => `${mark}${l}`);
  const count = lines.length;
  if (open) lines.push("\\ No newline at end of file");
  return { lines, count };
}
