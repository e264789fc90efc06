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

/**
 * The builtin shrink steps, cheapest first. Each changes one kind of data,
 * only as the section that declares it sees it, and leaves a visible marker
 * line where it cut:
 *
 * - `tree-lines`: the workspace trees (cwd's and each extra root's) list
 *   fewer entries per folder (its newest, a `… K more` line, its oldest), as
 *   `maxEntries` does when a tree is built; one limit for all of them, so the
 *   widest give first and a tree within the limit stays whole.
 * - `tree-depth`: the workspace trees show fewer levels, down to the top one,
 *   by the same rule.
 * - `agents-md`: the list of deeper AGENTS.md files keeps its shallowest
 *   paths and ends with `… K more`.
 * - `skill-descriptions`: skills are listed by name and location only.
 * - `skill-list`: the skills list is left out; one line says how many there are.
 * - `context-files`: context files give way to a marker line, the farthest
 *   from the working directory first.
 * - `rule-descriptions`: the repository's on-demand rules are listed without
 *   their descriptions, then without globs of more than 200 characters.
 * - `always-rules`: inlined rules give way to a marker line (their path
 *   stays), the outermost first (fewest path segments), ties in prompt order;
 *   the repository's before yours, and between the two the repository's
 *   on-demand rule lines are left out whole.
 * - `appended-files`: a file of the project named by `appendSystemPrompt`
 *   (and a project's or a host's APPEND_SYSTEM.md) gives way to a marker
 *   line, the longest first; your own appended text is never cut.
 */
export const SHRINK_STEPS = [
  "tree-lines",
  "tree-depth",
  "agents-md",
  "skill-descriptions",
  "skill-list",
  "context-files",
  "rule-descriptions",
  "always-rules",
  "appended-files",
] as const;

export type ShrinkStepName = (typeof SHRINK_STEPS)[number];

/** A section's `shrink:` frontmatter. */
export interface ShrinkSpec {
  /** Sections with a lower priority shrink first; ties go in prompt order. */
  priority: number;
  /** Applied in this order, each as far as needed before the next is tried. */
  steps: ShrinkStepName[];
}

/** One cut made to fit the budget. */
export interface BudgetCut {
  section: string;
  step: ShrinkStepName;
  /** What was cut, in a sentence fragment: "the workspace tree lists at most 4 entries per folder". */
  detail: string;
  /** Estimated tokens the cut saved. */
  saved: number;
  /** True when the step went as far as it goes (nothing more for it to cut). */
  complete: boolean;
}

/** A step left out because it would not make the prompt shorter (its marker costs more than it cuts). */
export interface BudgetSkip {
  section: string;
  step: ShrinkStepName;
  /** What the cut would have done, as in {@link BudgetCut}. */
  detail: string;
  /** Estimated tokens the cut would have added (0: it would have saved nothing). */
  added: number;
}

/**
 * What fitting a token budget did. Token counts are estimates: each section
 * is counted with the o200k_base encoding (gpt-tokenizer) and the counts are
 * summed with the separators between sections; other models' tokenizers
 * count differently.
 */
export interface BudgetReport {
  /** The budget asked for (`maxPromptTokens`). */
  maxTokens: number;
  /** How tokens were estimated. */
  tokenizer: "o200k_base";
  /** Estimated tokens of the prompt before any cut. */
  initialTokens: number;
  /** Estimated tokens of the prompt returned. */
  tokens: number;
  /** Whether `tokens` is within `maxTokens`. */
  fits: boolean;
  /** Every cut, in the order made. */
  cuts: BudgetCut[];
  /** Every step tried and left out, in the order tried. */
  skipped: BudgetSkip[];
  /**
   * Set when counting reached the render's deadline: the texts not counted by
   * then were over-counted (a token a byte), so the prompt is within the
   * budget but may have been cut more than it needed (`budget-tokens-estimated`).
   */
  overCounted?: true;
}
