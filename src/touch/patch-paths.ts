/**
 * The files a patch names, read as text: Codex's and opencode's patch
 * format (`*** Add File: a`, `*** Update File: a`, `*** Delete File: a`,
 * `*** Move to: b`) and a unified diff (`--- a/x`, `+++ b/x`). Pure.
 */

/** Most files taken from one patch. */
export const MAX_PATCH_PATHS = 64;
/** A patch line longer than this names no path we look at. */
const MAX_LINE = 4096;

const PATCH_HEADER = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/;
const DIFF_HEADER = /^(?:\+\+\+|---) (.+)$/;

/**
 * The paths in `patch`, as written (relative ones are the caller's to
 * resolve), each once, in order. A diff's `a/` and `b/` prefixes are taken
 * off; `/dev/null` and a tab-separated timestamp are left out.
 */
export function patchPaths(patch: string): string[] {
  return patchPathsCounted(patch, false).paths;
}

/**
 * {@link patchPaths}, with how many more paths the patch names past
 * {@link MAX_PATCH_PATHS} (`count`: read to its end to count them; else 0).
 */
export function patchPathsCounted(patch: string, count = true): { paths: string[]; left: number } {
  const out: string[] = [];
  const seen = new Set<string>();
  let left = 0;
  for (const raw of patch.split("\n")) {
    if (out.length >= MAX_PATCH_PATHS && !count) break;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.length > MAX_LINE) continue;
    const path = fromHeader(line);
    if (path === undefined || path === "" || seen.has(path)) continue;
    seen.add(path);
    if (out.length < MAX_PATCH_PATHS) out.push(path);
    else left++;
  }
  return { paths: out, left };
}

function fromHeader(line: string): string | undefined {
  const own = PATCH_HEADER.exec(line);
  if (own) return own[1]?.trim();
  const diff = DIFF_HEADER.exec(line);
  if (!diff) return undefined;
  const path = (diff[1] ?? "").split("\t")[0]?.trim() ?? "";
  if (path === "/dev/null") return undefined;
  return /^[ab]\//.test(path) ? path.slice(2) : path;
}
