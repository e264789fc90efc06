import type { BudgetReport } from "./budget/types.js";

/** Where a piece of the prompt came from, lowest precedence first. */
export type Layer = "builtin" | "user" | "project" | "option";

export type DiagnosticLevel = "error" | "warning" | "info";

/**
 * A problem found in a user file or a gathering step. Diagnostics are returned,
 * never thrown: the renderer always produces a prompt.
 */
export interface Diagnostic {
  level: DiagnosticLevel;
  /** Stable, machine-readable code such as `frontmatter-yaml` or `template-syntax`. */
  code: string;
  message: string;
  path?: string;
  /** 1-based line in `path`. */
  line?: number;
  /** 1-based column in `path`. */
  column?: number;
}

/** A value together with what went wrong while producing it. */
export interface WithDiagnostics<T> {
  value: T;
  diagnostics: Diagnostic[];
}

export interface SectionSource {
  layer: Layer;
  path?: string;
  /** The per-model variant that served it (`small` for `rules@small.md`); absent for a plain file. */
  variant?: string;
}

export interface RenderedSection {
  name: string;
  text: string;
  source: SectionSource;
}

/**
 * A run of sections of one cache class, as it stands in the prompt: what a
 * provider API takes as one system block (see `render --format anthropic`).
 */
export interface PromptBlock {
  /** How often this text changes: `stable`, `session` or `volatile`. */
  cache: "stable" | "session" | "volatile";
  /** The names of its sections, in prompt order. */
  sections: string[];
  /** Their text, with the separator after the last one when another block follows. */
  text: string;
}

export type StepStatus = "ok" | "timeout" | "failed" | "skipped";

export interface StepTiming {
  name: string;
  status: StepStatus;
  ms: number;
}

/** What `renderSystemPrompt` returns and `sysprompt render --json` prints. */
export interface RenderResult {
  text: string;
  /** `text` cut where the cache class changes: `blocks.map((b) => b.text).join("") === text`. */
  blocks: PromptBlock[];
  sections: RenderedSection[];
  diagnostics: Diagnostic[];
  steps: StepTiming[];
  /** Only when a token budget (`maxPromptTokens`) was given: the budget, the estimated count and every cut. */
  budget?: BudgetReport;
}

/**
 * Misuse of the API or an unusable explicit argument. User files never cause
 * this; they produce diagnostics instead.
 */
export class SyspromptError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SyspromptError";
    this.code = code;
  }
}
