import { didYouMean } from "./_suggest.js";
import type { Diagnostic } from "./types.js";

/** The keys one kind of file may hold in its frontmatter. */
export interface KnownKeys {
  /** Every key that means something in this kind of file. */
  keys: readonly string[];
  /**
   * True when nothing else may appear (a section file: every key is ours), so
   * any other key is a mistake. False for formats other agents extend (a
   * skill, a slash-command template): an unknown key is then reported only
   * when it is a likely typo of a known one, since the rest are another
   * agent's.
   */
  closed: boolean;
}

/**
 * Warnings for the keys of `data` that `known` does not list: `unknown
 * frontmatter key "enabeld", ignored; did you mean "enabled"?`, at the key's
 * line when `keyLines` has it. A misspelled key is ignored, and what it meant
 * to set (`enabled: false`, `disable-model-invocation: true`) silently does
 * not happen, so it is a warning (which `check --strict` fails on), not an info.
 */
export function unknownKeyDiagnostics(
  data: Readonly<Record<string, unknown>>,
  known: KnownKeys,
  where: { code: string; path: string; keyLines?: ReadonlyMap<string, number> },
): Diagnostic[] {
  return Object.keys(data).flatMap((key) => unknownKeyDiagnostic(key, known, where) ?? []);
}

/** {@link unknownKeyDiagnostics} for one key: undefined when it is known, or another agent's. */
export function unknownKeyDiagnostic(
  key: string,
  known: KnownKeys,
  where: { code: string; path: string; keyLines?: ReadonlyMap<string, number> },
): Diagnostic | undefined {
  if (known.keys.includes(key)) return undefined;
  const near = didYouMean(key, known.keys);
  if (near === undefined && !known.closed) return undefined;
  const line = where.keyLines?.get(key);
  return {
    level: "warning",
    code: where.code,
    // Quoted as JSON: the key is a file's text, and may hold terminal escapes.
    message: `unknown frontmatter key ${JSON.stringify(key)}, ignored; ${near ?? `the keys are: ${known.keys.join(", ")}`}`,
    path: where.path,
    ...(line !== undefined ? { line } : {}),
  };
}
