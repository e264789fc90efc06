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
  return merged.add(rebaseGitignore(text, base));
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
