import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { GoldenFile } from "./types.js";

/** The golden files of a scenario: the prompt, and its diagnostics when there are any. */
export function goldenPaths(scenarioFile: string, name: string) {
  const dir = dirname(scenarioFile);
  return { prompt: join(dir, `${name}.md`), diagnostics: join(dir, `${name}.diagnostics.txt`) };
}

/** One golden against what was rendered (`null`: this golden should not exist). */
export async function compare(
  path: string,
  kind: GoldenFile["kind"],
  actual: string | null,
): Promise<GoldenFile> {
  const expected = await readGolden(path);
  if (expected === actual) return { path, kind, status: "same", updated: false };
  if (expected === null) {
    // A new prompt golden would be the whole prompt as one diff: it is just reported missing.
    const diff = kind === "prompt" ? undefined : await unifiedDiff(path, "", actual ?? "");
    return { path, kind, status: "missing", updated: false, ...(diff ? { diff } : {}) };
  }
  const diff = await unifiedDiff(path, expected, actual ?? "");
  return { path, kind, status: actual === null ? "stale" : "changed", updated: false, diff };
}

/** A golden's text with CRLF read as LF (a Windows checkout), or null when there is none. */
async function readGolden(path: string): Promise<string | null> {
  try {
    return (await readFile(path, "utf8")).replaceAll("\r\n", "\n");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

async function unifiedDiff(path: string, expected: string, actual: string): Promise<string> {
  const { createTwoFilesPatch, FILE_HEADERS_ONLY } = await import("diff");
  // Prompts end without a newline; said once per side it is noise, so only a change in it shows.
  const [a, b] =
    !expected.endsWith("\n") && !actual.endsWith("\n")
      ? [`${expected}\n`, `${actual}\n`]
      : [expected, actual];
  const name = basename(path);
  return createTwoFilesPatch(name, name, a, b, "golden", "rendered", {
    headerOptions: FILE_HEADERS_ONLY,
  });
}
