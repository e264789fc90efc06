import { basename, dirname, join } from "node:path";
import { type DiffBudget, diffable, diffBudget } from "../../_diff-budget.js";
import { readFileNoFollow } from "../../repo-files/index.js";
import type { GoldenFile } from "../types.js";

/** A golden larger than this is not read (a link to /dev/zero is refused before that). */
export const MAX_GOLDEN_BYTES = 32 * 1024 * 1024;

/** The golden files of a scenario: the prompt, and its diagnostics when there are any. */
export function goldenPaths(scenarioFile: string, name: string) {
  const dir = dirname(scenarioFile);
  return { prompt: join(dir, `${name}.md`), diagnostics: join(dir, `${name}.diagnostics.txt`) };
}

/**
 * What a prompt golden holds for a rendered prompt: the prompt and one final
 * newline, so an editor that adds one on save does not show as drift.
 */
export function promptGolden(prompt: string): string {
  return `${prompt}\n`;
}

/**
 * Most characters of diffs one snapshot report holds, together (and so the
 * most one diff may be). A diff past what is left is summarised (sizes and the
 * first differing line): 150 scenarios over an 8 MB prompt, each drifting,
 * held 150 whole-prompt diffs (3 GB) and printed 1.2 GB.
 */
export const MAX_SNAPSHOT_DIFF_CHARS = 4 * 1024 * 1024;

/**
 * Most time the line diffs of one snapshot report take together. Each diff
 * stops at 250 ms, but a folder of scenarios whose goldens all drift spent
 * that on each, out of the run's 120 s; past this a drift is shown whole or
 * summarised, as past the room.
 */
export const SNAPSHOT_DIFF_MS = 2000;

/**
 * What is left of a report's {@link MAX_SNAPSHOT_DIFF_CHARS} (each diff kept
 * takes its length) and of the time and text its diffs may take.
 */
export interface DiffRoom {
  left: number;
  budget: DiffBudget;
}

/** A fresh room for one report's diffs. */
export function diffRoom(): DiffRoom {
  return {
    left: MAX_SNAPSHOT_DIFF_CHARS,
    budget: diffBudget(SNAPSHOT_DIFF_MS, MAX_SNAPSHOT_DIFF_CHARS),
  };
}

/**
 * One golden against what was rendered (`null`: this golden should not
 * exist). The comparison is exact but for CRLF, read as LF (a Windows checkout).
 * A diff is kept while `room` has space for it, else summarised.
 *
 * @throws UnsafePathError when the golden is a link, a folder, a special file
 * or too large: it is neither read nor, later, written.
 */
export async function compare(
  path: string,
  kind: GoldenFile["kind"],
  actual: string | null,
  room: DiffRoom = diffRoom(),
): Promise<GoldenFile> {
  // `path` lies in the scenario folder `snapshot` judged by its real path: read only there (rev92a F4).
  const bytes = await readFileNoFollow(path, MAX_GOLDEN_BYTES, { at: path });
  const expected = bytes === null ? null : bytes.toString("utf8").replaceAll("\r\n", "\n");
  if (expected === actual) return { path, kind, status: "same", updated: false };
  const status = expected === null ? "missing" : actual === null ? "stale" : "changed";
  // A new prompt golden would be the whole prompt as one diff: it is just reported missing.
  if (expected === null && kind === "prompt") return { path, kind, status, updated: false };
  const before = expected ?? "";
  const after = actual ?? "";
  // A diff is no shorter than what it adds or removes (both texts whole, past the size a
  // diff is tried on or the report's diff budget): one that cannot fit the room is not made.
  const least = diffable(before, after, room.budget)
    ? Math.abs(before.length - after.length)
    : before.length + after.length;
  const diff = least <= room.left ? await unifiedDiff(path, before, after, room.budget) : undefined;
  if (diff !== undefined && diff.length <= room.left) {
    room.left -= diff.length;
    return { path, kind, status, updated: false, diff };
  }
  return { path, kind, status, updated: false, summary: summarise(before, after) };
}

/** The sizes of two texts that differ and the first line (from 1) where they do. */
function summarise(before: string, after: string): NonNullable<GoldenFile["summary"]> {
  const n = Math.min(before.length, after.length);
  let at = 0;
  while (at < n && before.charCodeAt(at) === after.charCodeAt(at)) at++;
  let line = 1;
  for (let i = before.indexOf("\n"); i >= 0 && i < at; i = before.indexOf("\n", i + 1)) line++;
  return {
    goldenBytes: Buffer.byteLength(before, "utf8"),
    renderedBytes: Buffer.byteLength(after, "utf8"),
    firstDifferingLine: line,
  };
}

async function unifiedDiff(
  path: string,
  expected: string,
  actual: string,
  budget: DiffBudget,
): Promise<string> {
  const [{ FILE_HEADERS_ONLY }, { twoFilesPatch }] = await Promise.all([
    import("diff"),
    import("../../_text-diff.js"),
  ]);
  const name = basename(path);
  return twoFilesPatch(name, name, expected, actual, "golden", "rendered", {
    headerOptions: FILE_HEADERS_ONLY,
    budget,
  });
}
