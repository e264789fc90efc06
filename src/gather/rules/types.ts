import type { Diagnostic, Layer } from "../../types.js";

/** How a rule reaches the model. */
export type RuleActivation = "always" | "glob" | "model" | "manual";

/** The agent format a rule file was written for. */
export type RuleSource =
  | "cursor"
  | "windsurf"
  | "cline"
  | "copilot"
  | "claude"
  | "gemini"
  | "kiro"
  | "roo"
  | "continue"
  | "zed"
  | "sysprompt";

/** One rule file of some agent's format, read into one shape. */
export interface Rule {
  /** The file's name without its extension (`.md`, `.mdc`, `.instructions.md`), with its folders below the rules folder (`web/react`). */
  name: string;
  /** Absolute path, forward slashes. */
  path: string;
  /** The body after any frontmatter, trimmed (a cut file ends with a marker line). */
  content: string;
  activation: RuleActivation;
  /** File globs for `glob` rules, as written; empty for the others. */
  globs: string[];
  /** When the model should read it (`model` rules; any rule may have one). */
  description?: string;
  source: RuleSource;
  layer: Extract<Layer, "user" | "project">;
}

/** What happened to one rule file found: every file found gets one. */
export type RuleFate =
  | { status: "inlined" }
  | { status: "listed" }
  | { status: "manual" }
  /** Always rule every paragraph of which the prompt already states, in `containedIn` (labels joined with ", "). */
  | { status: "deduped"; containedIn: string }
  /** The same real file as `sameAs`, reached by another path; `sameAs` its own path: a context file the prompt holds. */
  | { status: "duplicate"; sameAs: string }
  /** The project's rule of the same format and name wins. */
  | { status: "shadowed"; by: string }
  /** Switched off by its own fields (Cline's `paths: []`). */
  | { status: "disabled"; reason: string }
  /** Not read: outside the project, a link that leaves it, not a regular file, untrusted `.pi/rules`. */
  | { status: "refused"; reason: string; code?: "name-not-utf8" }
  /** Not read: over the rules' total byte budget or a folder's file cap. */
  | { status: "over-cap"; reason: string }
  | { status: "unreadable"; reason: string };

/** One rule file found, with its fate: what `sysprompt explain` shows. */
export interface RuleAccount {
  path: string;
  source: RuleSource;
  layer: Rule["layer"];
  /** Its activation, when it was read far enough to have one. */
  activation?: RuleActivation;
  /** True when the file was longer than the per-file cap and cut. */
  cut?: boolean;
  /** An inlined rule that left out paragraphs the prompt already states: how many, and where they are. */
  trimmed?: { paragraphs: number; statedIn: string[] };
  fate: RuleFate;
}

export interface LoadedRules {
  /** Rules kept, in prompt order, manual ones included (they are not in the prompt). */
  rules: Rule[];
  /** Every rule file found, in the same order, dropped ones included. */
  accounts: RuleAccount[];
  diagnostics: Diagnostic[];
}
