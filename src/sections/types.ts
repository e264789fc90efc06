import type { SectionSource, ShrinkSpec } from "../types.js";

/** Section names: lower-case, start with a letter. */
export const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;

/**
 * The name of the custom base prompt (`--system-prompt`, SYSTEM.md,
 * SYSTEM_TEMPLATE.md) in a result. Its own name, not `preamble`: it replaces
 * every base section, and a preamble kept with `base: false` stays beside it.
 * No section file or section from code may take it.
 */
export const CUSTOM_PROMPT_SECTION = "system";

/**
 * How often a section's text changes, which decides where it goes and what a
 * prompt session does with it. `stable`: only when a file written for the
 * agent changes (sections, context files, rules, skills, SYSTEM/APPEND).
 * `session`: facts about the workspace and the machine (the tree, the
 * AGENTS.md list, the environment, the date), taken once per session.
 * `volatile`: may change on every render.
 */
export type CacheClass = "stable" | "session" | "volatile";

/** Every class, in prompt order: stable first, volatile last. */
export const CACHE_CLASSES: readonly CacheClass[] = ["stable", "session", "volatile"];

/** The frontmatter keys a section file may set, fully resolved. */
export interface SectionMeta {
  /** Position in the prompt; ties are broken by name. */
  order: number;
  /** Wrap the body as `<tag>…</tag>`; `false` for no wrapping. */
  tag: string | false;
  /** Dropped when a custom base prompt (SYSTEM.md…) replaces the base prompt. */
  base: boolean;
  /**
   * How often its text changes (the `cache:` key; `volatile: true` is the old
   * spelling of `cache: volatile`). Default: stable.
   */
  cache: CacheClass;
  /** `false` switches the section off. */
  enabled: boolean;
  description: string;
  /** A warning when the rendered section is longer than this many tokens (an o200k estimate). Default: no limit. */
  maxTokens?: number;
  /**
   * How the section gives up text to fit a token budget; null: never touched.
   * Sections with the lowest `priority` shrink first.
   */
  shrink: ShrinkSpec | null;
}

/** What makes a file a per-model variant (`rules@small.md`). */
export interface SectionVariant {
  /** The part after `@`: `small`. */
  name: string;
  /** Globs matched case-insensitively against the whole model name. */
  models: string[];
}

/** One section file as read from one layer, before layering. */
export interface SectionFile {
  name: string;
  /** Only the keys the file itself set (validated). */
  meta: Partial<SectionMeta>;
  body: string;
  /** 1-based line of the file on which `body` starts, to locate template errors. */
  bodyLine: number;
  /** `source.variant` names the variant for a variant file. */
  source: SectionSource;
  /** Set for a variant file (`<name>@<variant>.md`). */
  variant?: SectionVariant;
  /**
   * The file's `ejected-from` record (a valid one): the hash of the builtin
   * text `sysprompt eject` copied, and the line it is on.
   */
  ejectedFrom?: { hash: string; line?: number };
}

/** A section after layering: the winning file, its resolved meta, and the version it replaced. */
export interface SectionTemplate {
  name: string;
  meta: SectionMeta;
  body: string;
  bodyLine: number;
  source: SectionSource;
  /** The globs of the variant that serves this version, when it is one. */
  models?: string[];
  /**
   * The version below: the lower layer's, or for a variant, its own layer's
   * plain file when there is one. Rendered by `{{> base}}`, used as fallback
   * on errors.
   */
  lower?: SectionTemplate;
}
