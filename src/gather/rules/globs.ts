import { boundedPattern, MAX_DOUBLE_STARS, newIgnore } from "../../_gitignore.js";
import { describe, trimRuns } from "../../_text.js";
import type { Diagnostic } from "../../types.js";

/**
 * Matching a glob rule's globs against a path, with `ignore` (already a
 * dependency, for `.gitignore`). Why that one: it is small, has no
 * dependencies of its own, is kept up to date (eslint and prettier use it),
 * and its patterns are the ones every repository already writes: `*.ts`
 * matches at any depth, `src/**\/*.ts` and `/src/*.ts` are anchored at the
 * rule's folder, `**` crosses folders, `!` excludes, and a folder's name
 * covers what is inside it. picomatch is in `node_modules` only as a
 * dependency of a development tool, so the package could not rely on it.
 * `ignore` knows no braces, which rule files often use (`**\/*.{ts,tsx}`):
 * they are expanded here first, within caps.
 */

/** Longest glob read; longer ones match nothing (real ones are a few dozen characters). */
export const MAX_GLOB_LENGTH = 512;
/** Most globs of one rule that are used; a brace expansion counts each alternative. */
export const MAX_GLOBS_PER_RULE = 64;
/**
 * Most segments of a path a glob is tested against; a deeper path matches no
 * glob. `ignore` tests each of a path's parent folders too, so a glob with two
 * `**` costs about D^3 on a path D segments deep: 16 ms at 256, 10 s at
 * 2,000 (a path a hook can be handed), synchronously. Real paths are a few
 * dozen folders deep.
 */
export const MAX_GLOB_PATH_SEGMENTS = 64;

/**
 * `glob` with its braces expanded (`a.{ts,tsx}` → `a.ts`, `a.tsx`; nested
 * and several groups too), stopping at `limit` results. A brace group
 * without a comma, or an unclosed one, stays as written.
 */
export function expandBraces(glob: string, limit = MAX_GLOBS_PER_RULE): string[] {
  const open = glob.indexOf("{");
  if (open === -1) return [glob];
  // The group's end and its top-level commas.
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      close = i;
      break;
    } else if (c === "," && depth === 1) commas.push(i);
  }
  if (close === -1) return [glob];
  const head = glob.slice(0, open);
  const rest = expandBraces(glob.slice(close + 1), limit);
  if (commas.length === 0) return rest.map((r) => `${head}{${glob.slice(open + 1, close)}}${r}`);
  const cuts = [open, ...commas, close];
  const out: string[] = [];
  for (let k = 0; k + 1 < cuts.length && out.length < limit; k++) {
    const part = glob.slice((cuts[k] ?? 0) + 1, cuts[k + 1]);
    for (const inner of expandBraces(part, limit)) {
      for (const r of rest) {
        if (out.length >= limit) break;
        out.push(`${head}${inner}${r}`);
      }
    }
  }
  return out;
}

/**
 * A test of paths (relative to the rule's folder, `/`-separated, never `..`)
 * against a rule's globs: true when some glob matches and no later `!glob`
 * excludes it again. Globs that are empty or longer than
 * {@link MAX_GLOB_LENGTH} are left out; so are alternatives past
 * {@link MAX_GLOBS_PER_RULE}, and those with more `**` than
 * `MAX_DOUBLE_STARS` (see `boundedPattern`).
 */
export function globMatcher(globs: readonly string[]): (rel: string) => boolean {
  const { patterns } = globPatterns(globs);
  if (patterns.length === 0) return () => false;
  const ig = newIgnore();
  for (const pattern of patterns) {
    try {
      ig.add(pattern);
    } catch {
      // A pattern the matcher cannot compile matches nothing; the rule's other globs still do.
    }
  }
  return (rel) => {
    if (rel === "" || rel === ".." || rel.startsWith("../") || rel.startsWith("/")) return false;
    if (tooDeepForGlobs(rel)) return false;
    try {
      return ig.ignores(rel);
    } catch {
      // `ignore` refuses a path it cannot take as relative: no match, as for any other path outside.
      return false;
    }
  };
}

/** What of a rule's globs {@link globMatcher} uses, and what it leaves out (each said by {@link globDiagnostics}). */
interface GlobPatterns {
  patterns: string[];
  /** Globs over {@link MAX_GLOB_LENGTH} characters. */
  tooLong: string[];
  /** Alternatives with more `**` than `MAX_DOUBLE_STARS`. */
  tooManyStars: string[];
  /** Globs (or their brace alternatives) past {@link MAX_GLOBS_PER_RULE}, counted (`pastMore`: at least); the first of them. */
  past: number;
  pastMore?: boolean;
  firstPast?: string;
}

/** The one reading of a rule's globs into `ignore` patterns, within the caps (see {@link globMatcher}). */
function globPatterns(globs: readonly string[]): GlobPatterns {
  const out: GlobPatterns = { patterns: [], tooLong: [], tooManyStars: [], past: 0 };
  for (const glob of globs) {
    const used = out.patterns.length;
    const g = glob.trim();
    if (g === "") continue;
    if (g.length > MAX_GLOB_LENGTH) {
      out.tooLong.push(g);
      continue;
    }
    // Expanded a rule's worth further only to count what is left out.
    const all = expandBraces(g, 2 * MAX_GLOBS_PER_RULE + 1);
    if (all.length > 2 * MAX_GLOBS_PER_RULE) out.pastMore = true;
    const room = Math.max(0, MAX_GLOBS_PER_RULE - used);
    if (all.length > room) {
      out.past += all.length - room;
      out.firstPast ??= all[room];
    }
    for (const one of all.slice(0, room)) {
      // A leading `./` is the folder itself, as in the rule files' own examples.
      const bounded = boundedPattern(one.startsWith("./") ? one.slice(2) : one);
      // More `**` than a match can take in linear time: this glob matches nothing.
      if (bounded === undefined) out.tooManyStars.push(one);
      else out.patterns.push(bounded);
    }
  }
  return out;
}

/** Most globs one diagnostic names. */
const NAMED_GLOBS = 5;

/**
 * A warning at `path` for each kind of glob of a rule that {@link globMatcher}
 * leaves out, naming them (review rev79h F4: they were dropped in silence).
 * Said where a rule file is read (`toRule`), so a render and the hook's loading say it.
 */
export function globDiagnostics(globs: readonly string[], path: string): Diagnostic[] {
  const got = globPatterns(globs);
  const out: Diagnostic[] = [];
  const named = (list: string[]) =>
    `${list
      .slice(0, NAMED_GLOBS)
      .map((g) => describe(g))
      .join(", ")}${list.length > NAMED_GLOBS ? ` and ${list.length - NAMED_GLOBS} more` : ""}`;
  const say = (message: string) =>
    out.push({ level: "warning", code: "rule-glob-refused", message, path });
  if (got.tooManyStars.length > 0)
    say(
      `globs with more than ${MAX_DOUBLE_STARS} ** (a/**/b/**/c) match nothing (matching them costs time that grows with a path's depth to the power of their count): ${named(got.tooManyStars)}`,
    );
  if (got.tooLong.length > 0)
    say(`globs over ${MAX_GLOB_LENGTH} characters match nothing: ${named(got.tooLong)}`);
  if (got.past > 0)
    say(
      `${got.past}${got.pastMore ? " or more" : ""} globs past the first ${MAX_GLOBS_PER_RULE} of this rule (each brace alternative counts one) are not used, from ${describe(got.firstPast ?? "")}: split the rule`,
    );
  return out;
}

/**
 * Whether `rel` has more than {@link MAX_GLOB_PATH_SEGMENTS} segments: no glob
 * matches it, and a caller says so (`touch-glob-too-deep`), never silently.
 */
export function tooDeepForGlobs(rel: string): boolean {
  let slashes = 0;
  for (let i = rel.indexOf("/"); i !== -1; i = rel.indexOf("/", i + 1)) {
    if (++slashes >= MAX_GLOB_PATH_SEGMENTS) return true;
  }
  return false;
}

/** Characters after which a glob's text is no longer literal. */
const GLOB_META = /[*?[\]\\]/g;

/**
 * A test that `globMatcher(globs)` needs passed before it can match, for
 * deciding "no match" without loading the matcher: the matcher can match a
 * path only if one of its `/`-separated segments ends with one of these
 * (lower case: matching ignores case). Each glob that can match gives the
 * literal end of its last segment (`*.py` gives `.py`, `src/**\/*.{ts,tsx}`
 * gives `.ts` and `.tsx`, `docs/` gives `docs`): what matches a glob, or a
 * folder above it, has a segment matching that last part. Undefined when
 * some glob ends in a wildcard (`src/**`), escapes a character, or is
 * expanded past {@link MAX_GLOBS_PER_RULE}, or its end is not ASCII: no
 * such test is known.
 */
export function globSuffixes(globs: readonly string[]): string[] | undefined {
  const out = new Set<string>();
  let count = 0;
  for (const glob of globs) {
    const g = glob.trim();
    if (g === "" || g.length > MAX_GLOB_LENGTH) continue;
    const expanded = expandBraces(g, MAX_GLOBS_PER_RULE + 1);
    count += expanded.length;
    if (count > MAX_GLOBS_PER_RULE) return undefined;
    for (const one of expanded) {
      // An exclusion only takes matches away.
      if (one.startsWith("!")) continue;
      if (one.startsWith("#") || one.includes("\\")) return undefined;
      const trimmed = trimRuns(one, "/", "end");
      let end = 0;
      for (const m of trimmed.matchAll(GLOB_META)) end = m.index + 1;
      const tail = trimmed.slice(end);
      const last = tail.slice(tail.lastIndexOf("/") + 1);
      // Case folding past ASCII is the matcher's own: no test is made for it.
      if (last === "" || !/^[\x20-\x7e]+$/.test(last)) return undefined;
      out.add(last.toLowerCase());
    }
  }
  return [...out];
}
