import { basename, dirname, join } from "node:path";
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
 * One golden against what was rendered (`null`: this golden should not
 * exist). The comparison is exact but for CRLF, read as LF (a Windows checkout).
 *
 * @throws UnsafePathError when the golden is a link, a folder, a special file
 * or too large: it is neither read nor, later, written.
 */
export async function compare(
  path: string,
  kind: GoldenFile["kind"],
  actual: string | null,
): Promise<GoldenFile> {
  const bytes = await readFileNoFollow(path, MAX_GOLDEN_BYTES);
  const expected = bytes === null ? null : bytes.toString("utf8").replaceAll("\r\n", "\n");
  if (expected === actual) return { path, kind, status: "same", updated: false };
  if (expected === null) {
    // A new prompt golden would be the whole prompt as one diff: it is just reported missing.
    const diff = kind === "prompt" ? undefined : await unifiedDiff(path, "", actual ?? "");
    return { path, kind, status: "missing", updated: false, ...(diff ? { diff } : {}) };
  }
  const diff = await unifiedDiff(path, expected, actual ?? "");
  return { path, kind, status: actual === null ? "stale" : "changed", updated: false, diff };
}

async function unifiedDiff(path: string, expected: string, actual: string): Promise<string> {
  const [{ FILE_HEADERS_ONLY }, { twoFilesPatch }] = await Promise.all([
    import("diff"),
    import("../../_text-diff.js"),
  ]);
  const name = basename(path);
  return twoFilesPatch(name, name, expected, actual, "golden", "rendered", {
    headerOptions: FILE_HEADERS_ONLY,
  });
}
