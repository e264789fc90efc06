import { type KnownKeys, unknownKeyDiagnostic } from "../_frontmatter-keys.js";
import type { Diagnostic } from "../types.js";
import { EJECTED_FROM, EJECTED_FROM_KEY } from "./ejected-from.js";
import { readShrinkSpec } from "./shrink-spec.js";
import { CACHE_CLASSES, type CacheClass, type SectionMeta } from "./types.js";

const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** Every key is ours: any other is a typo or a mistake. */
const SECTION_KEYS: KnownKeys = {
  keys: [
    "order",
    "tag",
    "base",
    "cache",
    "volatile",
    "enabled",
    "description",
    "maxTokens",
    "shrink",
    "models",
    // Not `ejected-from`: it is known (read below), but written by `sysprompt
    // eject`, not by hand, so it is not offered in the list of keys to write.
  ],
  closed: true,
};

/** What a section gets when neither it nor a lower layer sets a key. */
export function defaultMeta(name: string): SectionMeta {
  return {
    order: 1000,
    tag: name,
    base: false,
    cache: "stable",
    enabled: true,
    description: "",
    shrink: null,
  };
}

/**
 * Validates a section file's frontmatter. A key with a value of the wrong type
 * is dropped with a diagnostic (the lower layer's value or the default then
 * applies). An unknown key is a warning, with the known key it is likely a
 * typo of: `enabeld: false` leaves the section on, which nobody meant. `models` belongs to
 * variant files (`rules@small.md`), which read it themselves; in a plain file
 * it is reported and ignored. `ejected-from` is not layered meta but a note
 * about this one file (which builtin text `eject` copied); it comes back as
 * `ejectedFrom`, for `check`.
 */
export function readSectionMeta(
  data: Record<string, unknown>,
  path: string,
  options: { variant?: boolean; keyLines?: ReadonlyMap<string, number> } = {},
): { meta: Partial<SectionMeta>; diagnostics: Diagnostic[]; ejectedFrom?: string } {
  const meta: Partial<SectionMeta> = {};
  let ejectedFrom: string | undefined;
  const diagnostics: Diagnostic[] = [];
  const { keyLines } = options;
  const lineOf = (key: string) => {
    const line = keyLines?.get(key);
    return line === undefined ? {} : { line };
  };
  const bad = (key: string, expected: string) =>
    diagnostics.push({
      level: "warning",
      code: "section-meta",
      message: `frontmatter "${key}" must be ${expected}; ignored`,
      path,
      ...lineOf(key),
    });
  // The old spelling: `volatile: true` is `cache: volatile`, `false` is `cache: stable`.
  let volatile: boolean | undefined;
  for (const [key, value] of Object.entries(data)) {
    switch (key) {
      case "order":
        if (typeof value === "number" && Number.isFinite(value)) meta.order = value;
        else bad(key, "a number");
        break;
      case "tag":
        if (value === false) meta.tag = false;
        else if (typeof value === "string" && TAG_NAME.test(value)) meta.tag = value;
        else bad(key, "false or a tag name such as rules");
        break;
      case "cache":
        if (typeof value === "string" && (CACHE_CLASSES as readonly string[]).includes(value)) {
          meta.cache = value as CacheClass;
        } else bad(key, CACHE_CLASSES.join(", ").replace(/, (?=[^,]*$)/, " or "));
        break;
      case "volatile":
        if (typeof value === "boolean") volatile = value;
        else bad(key, "true or false");
        break;
      case "base":
      case "enabled":
        if (typeof value === "boolean") meta[key] = value;
        else bad(key, "true or false");
        break;
      case "description":
        if (typeof value === "string") meta.description = value.trim();
        else bad(key, "a string");
        break;
      case "maxTokens":
        if (typeof value === "number" && Number.isSafeInteger(value) && value >= 1) {
          meta.maxTokens = value;
        } else bad(key, "a whole number of tokens, 1 or more");
        break;
      case "shrink": {
        const read = readShrinkSpec(value);
        if (read.ok) meta.shrink = read.spec;
        else bad(key, read.expected);
        break;
      }
      case EJECTED_FROM_KEY:
        // Never echoed: a tampered value may be huge or hold control characters.
        if (typeof value === "string" && EJECTED_FROM.test(value)) ejectedFrom = value;
        else bad(key, "sha256: and 12 lower-case hex digits, as sysprompt eject writes it");
        break;
      case "models":
        if (!options.variant) {
          diagnostics.push({
            level: "warning",
            code: "section-meta",
            message: `frontmatter "models" applies only to a variant file such as ${fileStem(path)}@small.md; in a plain section file it is ignored`,
            path,
            ...lineOf("models"),
          });
        }
        break;
      default: {
        const unknown = unknownKeyDiagnostic(key, SECTION_KEYS, {
          code: "section-meta-unknown",
          path,
          ...(keyLines ? { keyLines } : {}),
        });
        if (unknown) diagnostics.push(unknown);
      }
    }
  }
  if (volatile !== undefined) {
    const implied: CacheClass = volatile ? "volatile" : "stable";
    if (meta.cache === undefined) meta.cache = implied;
    else if (meta.cache !== implied) {
      diagnostics.push({
        level: "warning",
        code: "section-meta-cache",
        message: `frontmatter "volatile: ${volatile}" disagrees with "cache: ${meta.cache}"; cache wins (volatile: true is the old spelling of cache: volatile, remove one of them)`,
        path,
        ...lineOf("volatile"),
      });
    }
  }
  return { meta, diagnostics, ...(ejectedFrom !== undefined ? { ejectedFrom } : {}) };
}

/** `rules` for `/x/sections/rules.md`. */
function fileStem(path: string): string {
  const file = path.split(/[\\/]/).pop() ?? "";
  return file.endsWith(".md") ? file.slice(0, -".md".length) : file || "name";
}
