import { createRequire } from "node:module";
import type IgnoreFactory from "ignore";
import type { Ignore } from "ignore";

export type { Ignore } from "ignore";

let ignoreFactory: typeof IgnoreFactory | undefined;

/**
 * A new, empty rule list. `ignore` is loaded only once a .gitignore is met:
 * many walks meet none, and a CLI start counts milliseconds.
 */
export function newIgnore(): Ignore {
  ignoreFactory ??= createRequire(import.meta.url)("ignore") as typeof IgnoreFactory;
  return ignoreFactory();
}

/**
 * `rules` extended with the `.gitignore` text found in folder `base` ("/"-separated,
 * relative to the folder the paths are checked against; "" for that folder itself).
 * Returns a new list: the caller's list still serves the folder's siblings.
 */
export function addGitignore(rules: Ignore | undefined, text: string, base: string): Ignore {
  const merged = newIgnore();
  if (rules) merged.add(rules);
  const rebased = rebaseGitignore(dropOverlongPatterns(text), base);
  const before = rules === undefined ? [] : tails.get(rules);
  const added = patternTails(rebased);
  tails.set(merged, before && added ? [...before, ...added] : null);
  return merged.add(rebased);
}

/**
 * For the rule lists made by {@link addGitignore}: the last segment of each of
 * their patterns as a regular expression source, or null when some pattern's
 * last segment is not a plain name with at most one `*` (a `**`, `?`, class
 * or escape), for which no shortcut is taken.
 */
const tails = new WeakMap<Ignore, string[] | null>();
const tailRegexes = new WeakMap<Ignore, RegExp | null>();

/** Plain last segments: letters, digits and common punctuation, at most one `*` (so matching stays linear). */
const PLAIN_TAIL = /^[A-Za-z0-9._+@,=~-]*\*?[A-Za-z0-9._+@,=~-]*$/;

function patternTails(text: string): string[] | null {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw === "" || raw.startsWith("#")) continue;
    let pattern = raw.startsWith("!") ? raw.slice(1) : raw;
    if (pattern.endsWith("/")) pattern = pattern.slice(0, -1);
    const tail = pattern.slice(pattern.lastIndexOf("/") + 1);
    if (tail === "" || !PLAIN_TAIL.test(tail)) return null;
    out.push(
      tail
        .split("*")
        .map((part) => part.replace(/[.+]/g, "\\$&"))
        .join("[^/]*"),
    );
  }
  return out;
}

function tailRegex(rules: Ignore): RegExp | null {
  let regex = tailRegexes.get(rules);
  if (regex === undefined) {
    const sources = tails.get(rules) ?? null;
    // `ignore` matches case-insensitively by default, and so must the shortcut.
    regex = sources ? new RegExp(`^(?:${sources.join("|")})$`, "i") : null;
    tailRegexes.set(rules, regex);
  }
  return regex;
}

/**
 * Longest pattern line kept. No path is longer than PATH_MAX (4096 on Linux),
 * so a longer pattern can match nothing; `ignore` would also fail to compile
 * it and then throw on every check, losing the file's other rules.
 */
const MAX_PATTERN_LENGTH = 4096;

function dropOverlongPatterns(text: string): string {
  if (text.length <= MAX_PATTERN_LENGTH) return text;
  return text
    .split("\n")
    .filter((line) => line.length <= MAX_PATTERN_LENGTH)
    .join("\n");
}

/**
 * Rewrites the patterns of the `.gitignore` in folder `base` (relative to the
 * root) so they can join one rule list with the shallower files' patterns.
 * Later rules win in that list, so a deeper file's `!negation` overrides a
 * shallower rule, as in git. A pattern with a slash before its end is
 * anchored to its folder; one without matches at any depth below it.
 */
export function rebaseGitignore(text: string, base: string): string {
  if (base === "") return text;
  return text
    .split("\n")
    .map((line) => {
      if (line.trim() === "" || line.startsWith("#")) return line;
      const negated = line.startsWith("!");
      const pattern = negated ? line.slice(1) : line;
      const anchored = pattern.slice(0, -1).includes("/");
      const rebased = anchored ? `${base}/${pattern.replace(/^\//, "")}` : `${base}/**/${pattern}`;
      return negated ? `!${rebased}` : rebased;
    })
    .join("\n");
}

/**
 * Whether `path` ("/"-separated, relative; a folder ends in "/") is ignored.
 * `ignore` throws on paths it considers invalid; such a name is simply not ignored.
 */
export function isIgnored(rules: Ignore | undefined, path: string): boolean {
  if (!rules) return false;
  try {
    return rules.ignores(path);
  } catch {
    // A path `ignore` refuses (it cannot come from a readdir name, but be safe): keep the entry.
    return false;
  }
}

/**
 * {@link isIgnored} for a path whose parent folders are known not to be
 * ignored (a walk that never enters an ignored folder). A pattern can then
 * only match the path through its last segment, so when the path's name
 * matches no pattern's last segment the answer is "kept" without asking
 * `ignore`, whose check of one path costs about ten microseconds before the
 * JIT has warmed up: most of a cold tree walk's time on a large repository.
 */
export function isIgnoredInKeptFolder(rules: Ignore | undefined, path: string): boolean {
  if (!rules) return false;
  const regex = tailRegex(rules);
  if (regex) {
    const end = path.endsWith("/") ? path.length - 1 : path.length;
    const name = path.slice(path.lastIndexOf("/", end - 1) + 1, end);
    if (!regex.test(name)) return false;
  }
  return isIgnored(rules, path);
}
