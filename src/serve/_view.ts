import { diffWordsWithSpace } from "diff";
import {
  DIFF_BUDGET_TEXT,
  type DIFF_TIMEOUT_MS,
  type DiffBudget,
  diffBudget,
  type MAX_DIFF_CHARS,
  withinBudget,
} from "../_diff-budget.js";
import type { PromptData } from "../data.js";
import type { PreparedPrompt } from "../render-system-prompt.js";
import type { CacheClass } from "../sections/types.js";
import { boundedCounter, type TokenCounter } from "../tokens.js";
import type { Diagnostic, Layer, RenderResult, StepTiming } from "../types.js";
import type { Switches } from "./_switches.js";

/** The blank line between two sections of the prompt. */
const SEPARATOR = "\n\n";

/** Sections named in the `diff-cut` note before "and N more". */
const CUT_NAMED = 5;

/** One piece of a word diff: kept, added or removed text. */
export type DiffPart = ["=" | "+" | "-", string];

/** What led to a render. */
export interface RenderCause {
  /** `start`: the first render; `files`: a change on disk; `options`: switched on the page. */
  kind: "start" | "files" | "options";
  /** The changed files, for `files`. */
  files: string[];
}

export interface ViewSection {
  name: string;
  layer: Layer;
  path: string | null;
  volatile: boolean;
  /** The section's cache class: the prefix the page marks is the stable run. */
  cache: CacheClass;
  tokens: number;
  bytes: number;
  text: string;
  /** Compared with the previous render (`same` on the first). */
  status: "same" | "added" | "changed";
  /** For `changed`: the previous text against this one, word by word. */
  diff?: DiffPart[];
  /** The file that should have served this section but failed, when its fallback is shown. */
  failed?: { layer: Layer; path: string | null };
}

/** Everything the page shows for one render: what `/api/render` and each event carry. */
export interface InspectorView {
  /** 0 for the first render the server made, then 1, 2, … (across option switches). */
  count: number;
  cause: RenderCause;
  /** Time of the render, gathering included. */
  ms: number;
  cwd: string;
  switches: Switches;
  /** Tool names the page offers: the builtin descriptions', then any other selected or described. */
  tools: string[];
  tokenizer: string;
  sections: ViewSection[];
  /** Sections of the previous render that are gone. */
  removed: string[];
  total: { sections: number; bytes: number; tokens: number };
  /**
   * Everything before the first section that is not of the stable class (a
   * session or volatile one), with the blank line after it: what stays cached
   * across sessions. `firstVolatile` names that section.
   */
  stablePrefix: { sections: number; bytes: number; tokens: number; firstVolatile: string | null };
  diagnostics: Diagnostic[];
  steps: StepTiming[];
  /** The data the templates were rendered with. */
  data: PromptData;
  /** Why the latest re-render could not be made; the rest is the last good render. */
  error: string | null;
}

export interface ViewInput {
  count: number;
  cause: RenderCause;
  ms: number;
  result: RenderResult;
  prepared: PreparedPrompt;
  /** The render's diagnostics (the result's, then the slash-command templates'). */
  diagnostics: Diagnostic[];
  /** The render shown before this one, for the change marks and diffs. */
  previous: RenderResult | undefined;
  switches: Switches;
  tools: string[];
  tokenizer: string;
  error?: Error | undefined;
}

/**
 * Builds the page's view of a render. Token counts of texts seen in the last
 * render are reused, so an edit recounts only what it changed. Counting past
 * the render's deadline estimates what is left from its length (a warning
 * says so), and such a count is not kept for the next render.
 */
export function createViewBuilder(): (input: ViewInput) => InspectorView {
  let cache = new Map<string, number>();
  return (input) => {
    const next = new Map<string, number>();
    const at = input.prepared.deadline;
    const count = boundedCounter(at === undefined ? {} : { deadline: { at } });
    const tokens = (text: string) => {
      const kept = cache.get(text) ?? next.get(text);
      if (kept !== undefined) {
        next.set(text, kept);
        return kept;
      }
      const { tokens: n, estimated } = count.tally(text);
      if (!estimated) next.set(text, n);
      return n;
    };
    const view = buildView(input, tokens);
    cache = next;
    if (!count.estimated) return view;
    const warning: Diagnostic = {
      level: "warning",
      code: "tokens-estimated",
      message:
        "counting the prompt's tokens reached the render's deadline: what was not counted by then is estimated from its length, so the token figures are approximate",
    };
    return { ...view, diagnostics: [...view.diagnostics, warning] };
  };
}

function buildView(input: ViewInput, tokens: TokenCounter): InspectorView {
  const { result, prepared, previous } = input;
  const before = new Map(previous?.sections.map((s) => [s.name, s.text]));
  // Each section's class as the render cut its blocks.
  const classOf = new Map(result.blocks.flatMap((b) => b.sections.map((name) => [name, b.cache])));
  // One budget for the view's diffs: past it a changed section is shown whole.
  const budget = diffBudget();
  const cut: string[] = [];
  const sections = result.sections.map((section): ViewSection => {
    // The top version: what should serve it (a lower one stands in when it failed).
    const template = prepared.templates.find((t) => t.name === section.name);
    const old = before.get(section.name);
    const view: ViewSection = {
      name: section.name,
      layer: section.source.layer,
      path: section.source.path ?? null,
      volatile: classOf.get(section.name) === "volatile",
      cache: classOf.get(section.name) ?? "stable",
      tokens: tokens(section.text),
      bytes: Buffer.byteLength(section.text),
      text: section.text,
      status: !previous || old === section.text ? "same" : old === undefined ? "added" : "changed",
    };
    if (view.status === "changed" && old !== undefined) {
      const before = budget.cut;
      view.diff = wordDiff(old, section.text, budget);
      if (budget.cut > before) cut.push(section.name);
    }
    // The winning file failed to render and a lower version stands in for it.
    if (template && section.source.layer !== "option" && template.source.path !== view.path) {
      view.failed = { layer: template.source.layer, path: template.source.path ?? null };
    }
    return view;
  });
  const names = new Set(result.sections.map((s) => s.name));
  const firstVolatile = sections.findIndex((s) => s.cache !== "stable");
  const stable = firstVolatile < 0 ? sections : sections.slice(0, firstVolatile);
  const stableText =
    firstVolatile < 0 ? result.text : stable.map((s) => s.text + SEPARATOR).join("");
  return {
    count: input.count,
    cause: input.cause,
    ms: input.ms,
    cwd: prepared.data.cwd,
    switches: input.switches,
    tools: input.tools,
    tokenizer: input.tokenizer,
    sections,
    removed: (previous?.sections ?? []).map((s) => s.name).filter((n) => !names.has(n)),
    total: {
      sections: sections.length,
      bytes: Buffer.byteLength(result.text),
      tokens: tokens(result.text),
    },
    stablePrefix: {
      sections: stable.length,
      bytes: Buffer.byteLength(stableText),
      tokens: tokens(stableText),
      firstVolatile: firstVolatile < 0 ? null : (sections[firstVolatile]?.name ?? null),
    },
    diagnostics: cut.length > 0 ? [...input.diagnostics, diffCutNote(cut)] : input.diagnostics,
    steps: result.steps,
    data: prepared.data,
    error: input.error ? input.error.message : null,
  };
}

/** Says which changed sections are shown whole because the view's diffs ran out of budget. */
function diffCutNote(names: string[]): Diagnostic {
  const shown = names.slice(0, CUT_NAMED).join(", ");
  const more = names.length > CUT_NAMED ? ` and ${names.length - CUT_NAMED} more` : "";
  return {
    level: "info",
    code: "diff-cut",
    message: `${names.length === 1 ? "1 changed section is" : `${names.length} changed sections are`} shown removed and added whole, not word by word: one view's diffs stop after ${DIFF_BUDGET_TEXT} together (${shown}${more})`,
  };
}

/**
 * Word by word, whitespace and line breaks kept as their own tokens, so the
 * kept and added parts put together are exactly the new text. Past what is
 * left of `budget` (default: one diff's, {@link DIFF_TIMEOUT_MS} and
 * {@link MAX_DIFF_CHARS}), the section as removed and added whole.
 */
export function wordDiff(
  before: string,
  after: string,
  budget: DiffBudget = diffBudget(),
): DiffPart[] {
  const changes = withinBudget(budget, before, after, (timeout) =>
    diffWordsWithSpace(before, after, { timeout }),
  );
  if (!changes) {
    return [
      ["-", before],
      ["+", after],
    ];
  }
  return changes.map((c): DiffPart => [c.added ? "+" : c.removed ? "-" : "=", c.value]);
}
