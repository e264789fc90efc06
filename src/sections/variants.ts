import type { Diagnostic } from "../types.js";
import type { SectionFile } from "./types.js";

/**
 * A variant file's name without `.md`: the section's name, `@`, the variant's
 * name (`rules@small`). Lower case, like section names.
 */
export const VARIANT_NAME = /^[a-z][a-z0-9_-]*@[a-z0-9_-]+$/;

/** Longest model glob read; model names are short, and this bounds the match's cost. */
export const MAX_MODEL_GLOB = 200;

/**
 * Whether `name` matches `glob`, case-insensitively, as a whole: `*` stands for
 * any run of characters (`/` included, so `ollama/*` and `*-mini` both work
 * on `ollama/qwen2.5-mini`), `?` for exactly one; every other character is
 * itself. No regular expression is built from the glob: two indices walk the
 * texts and, on a mismatch, go back to the last `*` only, which never costs
 * more than `glob.length × name.length` steps (no exponential backtracking).
 */
export function matchGlob(glob: string, name: string): boolean {
  const g = glob.toLowerCase();
  const s = name.toLowerCase();
  let gi = 0;
  let si = 0;
  let star = -1;
  let resume = 0;
  while (si < s.length) {
    const c = g[gi];
    if (c === "*") {
      star = gi++;
      resume = si;
    } else if (c !== undefined && (c === "?" || c === s[si])) {
      gi++;
      si++;
    } else if (star >= 0) {
      gi = star + 1;
      si = ++resume;
    } else {
      return false;
    }
  }
  while (g[gi] === "*") gi++;
  return gi === g.length;
}

/** Whether any of a variant's globs matches the model. */
export function matchesModel(models: readonly string[], model: string): boolean {
  return models.some((glob) => matchGlob(glob, model));
}

/**
 * Chooses which of one layer's variants of a section serves it, if any. They
 * come sorted by file name; undefined means the layer's plain file (or,
 * without one, nothing from this layer).
 */
export type VariantPicker = (variants: readonly SectionFile[]) => SectionFile | undefined;

/**
 * The picker of a render: the first variant (by file name) whose `models`
 * globs match `model`. Without a model (or an empty one, which the
 * environment section does not state either), no variant applies.
 */
export function variantForModel(model: string | null | undefined): VariantPicker {
  if (!model) return () => undefined;
  return (variants) => variants.find((v) => v.variant && matchesModel(v.variant.models, model));
}

/**
 * Reads the `models` key of a variant file: a non-empty list of non-empty
 * globs. Anything else is a diagnostic located at the key (or the file's
 * first line when the key is missing), and the variant is ignored.
 */
export function readVariantModels(
  data: Record<string, unknown>,
  path: string,
  line: number | undefined,
): { models?: string[]; diagnostics: Diagnostic[] } {
  const value = data.models;
  const problem =
    value === undefined
      ? 'has no "models:" list'
      : !Array.isArray(value)
        ? '"models" must be a list of model-name globs such as ["*-mini", "gpt-*"]'
        : value.length === 0
          ? '"models" is an empty list, so it would never apply'
          : value.some((m) => typeof m !== "string" || m.trim() === "")
            ? '"models" must hold non-empty strings only'
            : value.some((m) => (m as string).length > MAX_MODEL_GLOB)
              ? `"models" globs are at most ${MAX_MODEL_GLOB} characters`
              : undefined;
  if (problem === undefined) {
    return { models: (value as string[]).map((m) => m.trim()), diagnostics: [] };
  }
  return {
    diagnostics: [
      {
        level: "warning",
        code: "variant-models",
        message: `variant file ${problem}; a variant needs models: with at least one glob matched against the model name (such as ["*-mini", "claude-*haiku*"]); ignored`,
        path,
        line: line ?? 1,
        column: 1,
      },
    ],
  };
}
