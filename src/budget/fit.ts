import { pushAll } from "../_arrays.js";
import { type Engine, PromptCompiles, PromptWork } from "../engine/index.js";
import { MAX_PROMPT_CALLS, MAX_PROMPT_CHARS } from "../engine/limits.js";
import type { TreeLine } from "../gather/tree/index.js";
import type { AppendPart } from "../options.js";
import {
  type RenderInput,
  type RenderOutput,
  renderSections,
  type SectionPatch,
  SectionReuse,
  withFields,
} from "../sections/render.js";
import type { SectionTemplate } from "../sections/types.js";
import type { CountDeadline } from "../tokens.js";
import type {
  BudgetCut,
  BudgetReport,
  BudgetSkip,
  Diagnostic,
  SectionSource,
  ShrinkSpec,
} from "../types.js";
import { BUDGET, initialState, patchFor, ROOM, type ShrinkState, STEPS } from "./steps.js";
import { o200kCounter, type TokenCounter } from "./tokens.js";

/**
 * What fitting may spend, every render together: each render is bounded by
 * the prompt's own work, but a project's sections may all declare every step.
 * Attack review 11: 1,000 one-line sections each declaring the eight steps,
 * under a project's `max-tokens: 100`, made render run 282 s (6,000 renders of
 * the whole prompt). The builtin steps' worst case takes about 60 renders of
 * 20 sections.
 */
const MAX_FIT_RENDERS = 64;

/**
 * Renders fitting may spend to make room for your texts past the 8 MiB caps
 * (`roomOnly`), which no flag asked for: each is a render of a prompt of
 * some 8 MiB, and 64 of them took 1.1 GB and 16 s of CPU (review rev37b).
 */
const MAX_ROOM_RENDERS = 16;
/**
 * Renders a project's sections' steps may spend under a token budget, on top
 * of the builtin and your sections' own: 16 sections of 512 KB each declaring
 * every step, printing none of the data those steps cut, spent fitting's 64
 * renders (1.3 GB, 17 s of CPU) before any builtin step (review rev38b).
 */
const MAX_PROJECT_FIT_RENDERS = 16;
/** Section templates rendered by fitting, every render together. */
const MAX_FIT_SECTION_RENDERS = 4096;
/** Helper calls, blocks and partials of fitting's renders together. */
const MAX_FIT_CALLS = 4 * MAX_PROMPT_CALLS;

export interface BudgetOptions {
  /** The most tokens the prompt may have (estimated). */
  maxTokens: number;
  /** The workspace tree's lines with their depth (from `buildWorkspaceTree`); without them, read from its text. */
  treeLines?: readonly TreeLine[];
  /** The same for each extra root's tree, in the order of the data's `rootTrees`. */
  rootTreeLines?: readonly (readonly TreeLine[])[];
  /** The addendum's parts as printed, with their owners: `appended-files` cuts the repository's. */
  appendParts?: readonly AppendPart[];
  /** How tokens are counted. Default: o200k_base (gpt-tokenizer), loaded on first use. */
  countTokens?: TokenCounter;
  /**
   * For the default counter: past this, texts not yet counted are over-counted
   * from their length (a token a byte), never under. Absent: counted exactly.
   */
  deadline?: CountDeadline;
  /**
   * Sections that hold the user's own texts (`userTextSections`). One the
   * first render left out for want of room (`prompt-too-large`, or its render
   * stopped at a limit) counts as over any budget while it is out, so fitting
   * cuts the repository's text, in every section and in its own, until it has
   * room: the 8 MiB caps never take the user's text out with the repository's.
   */
  keep?: ReadonlySet<string>;
  /**
   * Fitting for room only, with no token budget of the user's: `maxTokens` is
   * the prompt's 8 MiB and `countTokens` counts characters ({@link renderWithRoom}).
   * The warnings say so (`room-cut`, not `budget-cut`).
   */
  roomOnly?: boolean;
  /** The renders made before with the same input ({@link renderWithRoom}'s first). */
  reuse?: SectionReuse;
}

/**
 * What a section of `keep` left out counts, on top of its own size: more than
 * any prompt (in tokens or characters), so that bringing it back always makes
 * the estimate smaller.
 */
const LEFT_OUT_WEIGHT = 4 * MAX_PROMPT_CHARS;
/** The size a section left out unrendered, or whose render stopped at a limit, counts as. */
const UNRENDERED_SIZE = 2 * MAX_PROMPT_CHARS;
/**
 * What a section of `keep` the first render placed counts when a render leaves
 * it out for room: more than every section of `keep` left out together, so
 * that fitting never gives one of your texts' room to another of yours.
 */
const PLACED_WEIGHT = 16 * LEFT_OUT_WEIGHT;

export interface BudgetedOutput extends RenderOutput {
  budget: BudgetReport;
  /**
   * Set when fitting stopped at its work limit before the builtin and your
   * sections' steps were all tried (`budget-fit-cut`): a section of yours
   * left out may not have had the repository's text cut first.
   */
  fitStopped?: true;
}

/**
 * Renders, then — when the prompt is over `maxTokens` — shrinks it until it
 * fits: sections that declare `shrink:` give up text, the lowest `priority`
 * first (ties in prompt order), each through its steps in the order declared.
 * A step is taken only as far as needed: the smallest of its levels that
 * fits, found by bisection, or all of it when none does, and then the next
 * step. A step that would not make the prompt shorter is left out (see
 * `BudgetReport.skipped`). A section without `shrink:` is never touched.
 *
 * A section the whole prompt had no room for (`prompt-too-large`) is left out
 * while the rest is fitted, then tried once more with the cuts made and its
 * own steps; it stays only when the prompt then fits, else the fitted prompt
 * is kept without it (`budget-left-out`). So the prompt returned is within
 * the budget whenever the sections the first render placed can be fitted.
 *
 * Pure and bounded: every step costs at most 1 + log2(its levels) renders,
 * at most two passes, and every render counts against one total. When even
 * every step is not enough, the most-shrunk prompt is returned with an error
 * diagnostic; nothing throws.
 *
 * Tokens are estimated per section (cached by text) and summed with the
 * separators between sections, which is within a few tokens of counting the
 * whole text, usually above it.
 */
export function renderWithinBudget(
  input: RenderInput,
  engine: Engine,
  options: BudgetOptions,
): BudgetedOutput {
  const bounded = options.countTokens ? undefined : o200kCounter(options.deadline);
  const count = options.countTokens ?? (bounded as TokenCounter);
  const max = options.maxTokens;
  // What the markers name as the cause: your token budget, or the prompt's 8 MiB (rev55a F2).
  const why = options.roomOnly === true ? ROOM : BUDGET;
  const cache = new Map<string, number>();
  const tokensOf = (text: string): number => {
    // Characters (room): nothing to keep, and hashing each new text of some 8 MiB cost more.
    if (options.roomOnly === true) return count(text);
    let n = cache.get(text);
    if (n === undefined) {
      n = count(text);
      cache.set(text, n);
    }
    return n;
  };
  const separator = tokensOf("\n\n");
  const real = (out: RenderOutput) =>
    out.sections.reduce((n, s) => n + tokensOf(s.text), 0) +
    Math.max(0, out.sections.length - 1) * separator;
  // The sections of `keep` the first render left out for want of room, and those it placed (below).
  let wanted: ReadonlySet<string> = new Set();
  let placedKeep: ReadonlySet<string> = new Set();
  /**
   * The prompt's tokens, and for each section of `wanted` still out, more than
   * any prompt; for each of `placedKeep` a render left out for room, more again.
   */
  const estimate = (out: RenderOutput) => {
    let n = real(out);
    for (const name of wanted) {
      if (out.sections.some((s) => s.name === name)) continue;
      n += LEFT_OUT_WEIGHT + (out.leftOutSizes?.[name] ?? UNRENDERED_SIZE);
    }
    if (placedKeep.size > 0) {
      for (const name of leftOutForRoom(out, placedKeep)) {
        n += PLACED_WEIGHT + (out.leftOutSizes?.[name] ?? UNRENDERED_SIZE);
      }
    }
    return n;
  };

  /** The sections of yours (`wanted`, `placedKeep`) `after` holds and `before` did not, and those it has not. */
  const yoursMoved = (before: RenderOutput, after: RenderOutput) => {
    const had = new Set(before.sections.map((s) => s.name));
    const has = new Set(after.sections.map((s) => s.name));
    const yours = [...new Set([...wanted, ...placedKeep])];
    return {
      back: yours.filter((n) => has.has(n) && !had.has(n)),
      out: yours.filter((n) => !has.has(n)),
    };
  };

  const states = new Map<string, ShrinkState>();
  // Fitting's work: only the sections rendered afresh count; one whose patch did not change
  // is given its earlier text (`reuse`), so a section no step touches costs nothing more.
  const spent = { renders: 0, projectRenders: 0, sections: 0, calls: 0 };
  const reuse = options.reuse ?? new SectionReuse();
  const renderCounted = (
    patches?: ReadonlyMap<string, SectionPatch>,
    leaveOut?: ReadonlySet<string>,
  ) => {
    const work = new PromptWork(reuse.compiles);
    spent.renders++;
    const rendered = reuse.rendered;
    const replayed = reuse.replayedCalls;
    const out = renderSections(
      {
        ...input,
        ...(patches ? { patches } : {}),
        ...(leaveOut ? { leaveOut } : {}),
        work,
        reuse,
      },
      engine,
    );
    spent.sections += reuse.rendered - rendered;
    spent.calls += work.calls - (reuse.replayedCalls - replayed);
    return out;
  };
  const maxRenders = options.roomOnly === true ? MAX_ROOM_RENDERS : MAX_FIT_RENDERS;
  // A project's sections' attempts count apart, against a cap of their own: they never
  // spend the renders of the builtin and your sections' steps.
  const exhausted = (project = false) =>
    (project
      ? spent.projectRenders >= MAX_PROJECT_FIT_RENDERS
      : spent.renders - spent.projectRenders >= maxRenders) ||
    spent.sections >= MAX_FIT_SECTION_RENDERS ||
    spent.calls >= MAX_FIT_CALLS;
  let cutShort = false;
  // Set when your own text was kept because cutting it too would not have made the prompt fit.
  let yoursKept = false;
  // Whether a project's sections' steps stopped at their own cap (fitting itself may not have).
  let projectCut = false;
  // One patch object a state: a section whose state did not change is not rendered again.
  const patchOf = new WeakMap<ShrinkState, SectionPatch>();
  const render = (leaveOut?: ReadonlySet<string>) => {
    const patches = new Map<string, SectionPatch>();
    for (const [name, state] of states) {
      let patch = patchOf.get(state);
      if (patch === undefined) {
        patch = patchFor(state, input.data);
        patchOf.set(state, patch);
      }
      patches.set(name, patch);
    }
    return renderCounted(patches, leaveOut);
  };

  const first = renderCounted(input.patches);
  wanted = leftOutForRoom(first, options.keep);
  if (options.keep !== undefined) {
    const keep = options.keep;
    placedKeep = new Set(first.sections.map((s) => s.name).filter((n) => keep.has(n)));
  }
  const initialTokens = real(first);
  let out = first;
  let tokens = estimate(first);
  const cuts: BudgetCut[] = [];
  const skipped: BudgetSkip[] = [];
  const diagnostics: Diagnostic[] = [];
  // Every section a pass planned: the error's "never cut" list leaves them out.
  const planned = new Set<string>();

  /**
   * One pass: the sections' steps, lowest priority first (ties in prompt
   * order), each section from where an earlier pass left it, until the
   * prompt fits. Renders leave out `leaveOut`. The pass goes through the plan
   * twice: first each step only as far as it cuts the repository's text (the
   * tree, a repository's context files, rules and skills), then the whole
   * step, so the user's own text in any section goes only after the
   * repository's in every section (issue 24: the user's skills, priority 30,
   * were cut before a repository AGENTS.md, 40).
   */
  const fitPass = (sections: Shrinkable[], leaveOut: ReadonlySet<string> | undefined) => {
    // Stable: equal priorities keep prompt order.
    const plan = [...sections].sort((a, b) => a.shrink.priority - b.shrink.priority);
    for (const section of plan) planned.add(section.name);
    for (const section of plan) {
      if (!stepsOf(section, true, leaveOut)) return;
    }
    if (!yoursWouldFit(plan, leaveOut)) {
      yoursKept = true;
      return;
    }
    for (const section of plan) {
      if (!stepsOf(section, false, leaveOut)) return;
    }
  };

  /**
   * Whether every step taken whole, your text with the rest, would make the
   * prompt fit: when the repository's uncuttable text alone is over the
   * budget, cutting yours saves a little and fits nothing (your skill went to
   * save 125 tokens of 67,000 over, review rev50b F1), so yours is kept and
   * the prompt is over the budget (budget-exceeded). One render.
   */
  const yoursWouldFit = (
    plan: readonly Shrinkable[],
    leaveOut: ReadonlySet<string> | undefined,
  ): boolean => {
    if (tokens <= max || exhausted()) return true;
    const before = new Map(states);
    // A project's sections keep their state: rendering them all afresh once more would spend
    // what their cap saves (16 sections of 512 KB), and a step they would take errs toward yours.
    for (const section of plan) {
      if (section.source.layer === "project") continue;
      let state =
        states.get(section.name) ??
        initialState(
          input.data,
          options.treeLines,
          options.rootTreeLines,
          options.appendParts,
          why,
        );
      for (const name of new Set(section.shrink.steps)) {
        const step = STEPS[name];
        const levels = step.levels(state);
        if (levels > 0) state = step.apply(state, levels);
      }
      states.set(section.name, state);
    }
    const all = render(leaveOut);
    states.clear();
    for (const [name, state] of before) states.set(name, state);
    return real(all) <= max;
  };

  /** A section's steps, each as far as `repositoryOnly` lets; false when fitting is done or stopped. */
  const stepsOf = (
    section: Shrinkable,
    repositoryOnly: boolean,
    leaveOut: ReadonlySet<string> | undefined,
  ): boolean => {
    let state =
      states.get(section.name) ??
      initialState(input.data, options.treeLines, options.rootTreeLines, options.appendParts, why);
    const project = section.source.layer === "project";
    // A step declared twice is taken once.
    for (const name of new Set(section.shrink.steps)) {
      if (tokens <= max) return false;
      // The user's own text goes only for the budget itself, never to make room for a section
      // of `wanted`: that would trade the user's text in one section for the user's in another.
      if (!repositoryOnly && real(out) <= max) return false;
      const step = STEPS[name];
      const repository = step.repositoryLevels(state);
      // The second time through, only steps with the user's text left to cut: a step that
      // cuts only the repository's was taken as far as it goes the first time.
      const levels = repositoryOnly ? repository : step.levels(state);
      if (levels === 0 || (!repositoryOnly && levels <= repository)) continue;
      if (exhausted(project)) {
        cutShort = true;
        // A project's section out of renders: the next section's steps may still be taken.
        if (project && !exhausted()) {
          projectCut = true;
          return true;
        }
        return false;
      }
      const from = state;
      const attempt = (level: number) => {
        const next = step.apply(from, level);
        states.set(section.name, next);
        if (project) spent.projectRenders++;
        const rendered = render(leaveOut);
        return { level, state: next, out: rendered, tokens: estimate(rendered) };
      };
      let best = attempt(levels);
      if (best.tokens <= max) {
        // The smallest level that fits; `hi` always fits.
        let lo = 1;
        let hi = levels;
        while (lo < hi && !exhausted(project)) {
          const mid = Math.floor((lo + hi) / 2);
          const tried = attempt(mid);
          if (tried.tokens <= max) {
            hi = mid;
            best = tried;
          } else {
            lo = mid + 1;
          }
        }
        if (lo < hi) {
          cutShort = true;
          if (project && !exhausted()) projectCut = true;
        }
      }
      if (best.tokens >= tokens) {
        // A step whose markers cost more than the text it cuts (short skill descriptions
        // under a note): taking it would make the prompt longer, so it is accounted and left.
        states.set(section.name, state);
        skipped.push({
          section: section.name,
          step: name,
          detail: step.describe(from, best.level),
          added: best.tokens - tokens,
        });
        continue;
      }
      states.set(section.name, best.state);
      const cut: BudgetCut = {
        section: section.name,
        step: name,
        detail: step.describe(from, best.level),
        // Real tokens: a cut that gave a section of yours its room back may make the prompt longer.
        saved: real(out) - real(best.out),
        // Complete: the whole step, the user's text with the repository's.
        complete: best.level === step.levels(from),
      };
      cuts.push(cut);
      diagnostics.push(
        cutDiagnostic(
          cut,
          section,
          max,
          options.roomOnly === true,
          wanted,
          yoursMoved(out, best.out),
        ),
      );
      if (options.roomOnly !== true && best.level > step.repositoryLevels(from)) {
        diagnostics.push(yoursCutDiagnostic(cut, section, max));
      }
      state = best.state;
      out = best.out;
      tokens = best.tokens;
    }
    return true;
  };

  // A section the whole prompt had no room for (prompt-too-large) is left out
  // while the rest is fitted: were it rendered, the first cut that made room
  // would bring it back whole, never shrunk, past the budget (attack review 27:
  // ~1,180,000 tokens under --max-tokens 100000, project_rules back after the
  // context files were cut). With the rest fitted, it is tried once more, with
  // its own steps; it stays only when the prompt then fits.
  // The sections of yours left out for room are not: fitting makes room for them (`keep`).
  const leftOut = (first.leftOut ?? []).filter((name) => !wanted.has(name));
  const leaveOut = leftOut.length > 0 ? new Set(leftOut) : undefined;
  // Making room for your texts takes the builtin and your sections' steps only: a project's
  // sections declaring every step on text they do not print spent all the renders for nothing.
  const own = options.roomOnly === true;
  fitPass(
    [...shrinkable(input, first, own), ...shrinkableLeftOut(input, first, wanted, own)],
    leaveOut,
  );
  if (leaveOut && out !== first) {
    const kept = {
      out,
      tokens,
      cuts: cuts.length,
      skipped: skipped.length,
      diagnostics: diagnostics.length,
      states: new Map(states),
      cutShort,
    };
    let back: LeftOutTry = { fitted: tokens <= max, tried: false, tokens, stopped: false };
    // Fitted, but with no work left to try them again: fitting stopped at its limit.
    if (back.fitted && exhausted()) kept.cutShort = true;
    if (back.fitted && !exhausted()) {
      out = render();
      tokens = estimate(out);
      fitPass(shrinkable(input, out, own), undefined);
      const returned = leftOut.some((name) => out.sections.some((s) => s.name === name));
      back = { fitted: true, tried: true, tokens, stopped: cutShort, returned };
    }
    if (!back.tried || tokens > max || !back.returned) {
      out = withFields(kept.out, { leftOut: [...leftOut, ...(kept.out.leftOut ?? [])] });
      tokens = kept.tokens;
      cuts.length = kept.cuts;
      skipped.length = kept.skipped;
      diagnostics.length = kept.diagnostics;
      states.clear();
      for (const [name, state] of kept.states) states.set(name, state);
      cutShort = kept.cutShort;
      // The fitted prompt's render left them out unasked; the first render's reason stands.
      pushAll(
        diagnostics,
        first.diagnostics.filter((d) => d.code === "prompt-too-large"),
        [leftOutDiagnostic(leftOut, max, back)],
      );
    }
  }

  let projectOnly = false;
  if (cutShort) {
    const work = `${spent.renders} renders of the prompt (${spent.sections} sections rendered afresh, ${spent.calls} helper calls)`;
    projectOnly = projectCut && !exhausted();
    diagnostics.push({
      level: "warning",
      code: "budget-fit-cut",
      message:
        options.roomOnly === true
          ? `making room for your own texts in the prompt's ${MAX_PROMPT_CHARS / (1024 * 1024)} MiB stopped at its work limit after ${work}, before every step that cuts the repository's text was tried`
          : projectOnly
            ? `fitting the token budget took the project's sections' own shrink steps in at most ${MAX_PROJECT_FIT_RENDERS} renders, and not all of them were tried (${work} in all); the builtin and your sections' steps were`
            : `fitting the token budget stopped after ${work}: the prompt is the most shrunk found so far, and a step may have cut more than it needed`,
    });
  }
  if (bounded?.estimated) {
    diagnostics.push({
      level: "warning",
      code: "budget-tokens-estimated",
      message: `counting the prompt's tokens reached the render's deadline: what was not counted by then was over-counted as a token a byte, so the prompt is within the budget of ${max} but may have been cut more than it needed; a longer deadline counts it exactly`,
    });
  }
  // A section of yours that found no room is left out all the same (user-text-left-out says so).
  tokens = real(out);
  const fits = tokens <= max;
  if (!fits) {
    diagnostics.push(overBudget(out, planned, tokens, max, tokensOf, cutShort, yoursKept));
  }
  return withFields(out, {
    diagnostics: [...out.diagnostics, ...diagnostics],
    budget: {
      maxTokens: max,
      tokenizer: "o200k_base",
      initialTokens,
      tokens,
      fits,
      cuts,
      skipped,
      ...(bounded?.estimated ? { overCounted: true as const } : {}),
    },
    ...(cutShort && !projectOnly ? { fitStopped: true as const } : {}),
  });
}

/** How trying the sections left out for want of room again went. */
interface LeftOutTry {
  /** Whether the prompt without them fitted the budget. */
  fitted: boolean;
  /** Whether they were rendered again (not when the prompt did not fit, or fitting's work was spent). */
  tried: boolean;
  /** The prompt's tokens with them, after their steps (when tried). */
  tokens: number;
  /** Whether fitting stopped at its work limit. */
  stopped: boolean;
  /** Whether any of them had room in the prompt again (when tried). */
  returned?: boolean;
}

/** Sections named in a diagnostic; the rest are counted. */
const MAX_NAMED = 5;

/**
 * The warning for sections the whole prompt had no room for that the fitted
 * prompt leaves out too, and why.
 */
function leftOutDiagnostic(names: readonly string[], max: number, back: LeftOutTry): Diagnostic {
  const quoted = names.slice(0, MAX_NAMED).map((n) => `"${n}"`);
  const more = names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : "";
  const which =
    names.length === 1 ? `section ${quoted[0]}` : `sections ${quoted.join(", ")}${more}`;
  const them = names.length === 1 ? "it" : "them";
  const why = !back.fitted
    ? `the rest of the prompt is over the budget of ${max} without ${them}`
    : !back.tried
      ? `fitting stopped at its work limit (budget-fit-cut) before ${them} could be tried again`
      : !back.returned
        ? `with the rest fitted, the prompt still had no room for ${them}`
        : `with ${them} the prompt is about ${back.tokens} tokens, over the budget of ${max}${back.stopped ? " when fitting stopped at its work limit (budget-fit-cut)" : " even with every shrink step applied"}`;
  return {
    level: "warning",
    code: "budget-left-out",
    message: `${which}, left out for want of room (prompt-too-large), ${names.length === 1 ? "stays" : "stay"} out of the fitted prompt: ${why}`,
  };
}

/** A section in the prompt whose version in use declares `shrink:`. */
interface Shrinkable {
  name: string;
  shrink: ShrinkSpec;
  source: SectionSource;
}

/**
 * The rendered sections, in prompt order, whose version in use — the one
 * whose file the section names, which is a lower one when a template failed —
 * declares `shrink:`. Sections from code and the custom base prompt never do;
 * with `ownOnly`, a project's sections are left out too.
 */
function shrinkable(input: RenderInput, out: RenderOutput, ownOnly = false): Shrinkable[] {
  const templates = new Map(input.templates.map((t) => [t.name, t]));
  return out.sections.flatMap((section) => {
    if (section.source.layer === "option") return [];
    if (ownOnly && section.source.layer === "project") return [];
    let version: SectionTemplate | undefined = templates.get(section.name);
    while (version?.lower && version.source.path !== section.source.path) version = version.lower;
    const shrink = version?.meta.shrink;
    return shrink ? [{ name: section.name, shrink, source: section.source }] : [];
  });
}

/**
 * The error for a budget not reached, naming the largest sections no step
 * may touch; with `stopped`, fitting ran out of work (budget-fit-cut) before
 * it tried every step, and the error says so rather than that all were applied.
 */
function overBudget(
  out: RenderOutput,
  shrinks: ReadonlySet<string>,
  tokens: number,
  max: number,
  tokensOf: TokenCounter,
  stopped: boolean,
  yoursKept = false,
): Diagnostic {
  const largest = out.sections
    .filter((s) => !shrinks.has(s.name))
    .map((s) => ({ name: s.name, tokens: tokensOf(s.text) }))
    .sort((a, b) => b.tokens - a.tokens)
    .slice(0, 3)
    .map((s) => `${s.name} ~${s.tokens}`);
  return {
    level: "error",
    code: "budget-exceeded",
    message: `the prompt is about ${tokens} tokens (o200k estimate), over the budget of ${max}${stopped ? ": fitting stopped at its work limit (budget-fit-cut) before every shrink step was tried" : yoursKept ? " even with every shrink step applied to the repository's text (your own text is kept: cutting it too would not make the prompt fit)" : " even with every shrink step applied"}; sections without shrink steps are never cut${largest.length > 0 ? ` (the largest: ${largest.join(", ")})` : ""}; raise the budget, or shorten or switch off a section`,
  };
}

/**
 * The sections of `keep` the render left out for want of room: the whole
 * prompt had none (`leftOut`), or their render stopped at one of its limits
 * (`stopped`: a section of more than 8 MiB).
 */
function leftOutForRoom(out: RenderOutput, keep: ReadonlySet<string> | undefined): Set<string> {
  if (keep === undefined) return new Set();
  return new Set([...(out.leftOut ?? []), ...(out.stopped ?? [])].filter((n) => keep.has(n)));
}

/**
 * The sections of `wanted` absent from `out` whose version on top declares
 * `shrink:`: the render did not place them, so {@link shrinkable} cannot see
 * them, and their own steps (the repository's rules, files or skills first)
 * are what gives them room.
 */
function shrinkableLeftOut(
  input: RenderInput,
  out: RenderOutput,
  wanted: ReadonlySet<string>,
  ownOnly = false,
): Shrinkable[] {
  const placed = new Set(out.sections.map((s) => s.name));
  return input.templates.flatMap((t) => {
    if (!wanted.has(t.name) || placed.has(t.name) || !t.meta.enabled || !t.meta.shrink) return [];
    // As `shrinkable`: a project's override of a section of yours gives it no steps to take.
    if (ownOnly && t.source.layer === "project") return [];
    return [{ name: t.name, shrink: t.meta.shrink, source: t.source }];
  });
}

/** The warning for one cut: to fit the user's token budget, or (`roomOnly`) to give the user's texts room in 8 MiB. */
function cutDiagnostic(
  cut: BudgetCut,
  section: Shrinkable,
  max: number,
  roomOnly: boolean,
  wanted: ReadonlySet<string>,
  moved: { back: readonly string[]; out: readonly string[] },
): Diagnostic {
  const where = section.source.path ? { path: section.source.path } : {};
  const quoted = (names: Iterable<string>) => [...names].map((n) => `"${n}"`).join(", ");
  const yours = quoted(wanted);
  if (roomOnly) {
    return {
      level: "warning",
      code: "room-cut",
      message: `section "${cut.section}" shrunk (${cut.step}): ${cut.detail}; the prompt holds at most ${MAX_PROMPT_CHARS / (1024 * 1024)} MiB, and the repository's text goes before your own texts in ${wanted.size === 1 ? "section" : "sections"} ${yours}`,
      ...where,
    };
  }
  // A cut is taken when it saves tokens or brings your texts nearer to room; it says which.
  const mib = MAX_PROMPT_CHARS / (1024 * 1024);
  const saved =
    cut.saved > 0
      ? `about ${cut.saved} tokens saved`
      : moved.back.length > 0
        ? `which gave your own texts in ${quoted(moved.back)} their room back in the prompt's ${mib} MiB${moved.out.length > 0 ? ` (still out: ${quoted(moved.out)})` : ""}`
        : moved.out.length > 0
          ? `which saved no tokens and gave your own texts in ${quoted(moved.out)} no room yet: they are still out of the prompt (user-text-left-out); it was taken as a step toward their room in the prompt's ${mib} MiB`
          : "which saved no tokens";
  return {
    level: "warning",
    code: "budget-cut",
    message: `section "${cut.section}" shrunk to fit the token budget of ${max} (${cut.step}): ${cut.detail}; ${saved}`,
    ...where,
  };
}

/** The warning that a budget cut took your own text: the repository's cuttable text was all cut first. */
function yoursCutDiagnostic(cut: BudgetCut, section: Shrinkable, max: number): Diagnostic {
  return {
    level: "warning",
    code: "user-text-left-out",
    message: `your own text in section "${cut.section}" was cut to fit the token budget of ${max} (${cut.step}: ${cut.detail}), after every cut of the repository's text; raise the budget to have it back`,
    ...(section.source.path ? { path: section.source.path } : {}),
  };
}

/**
 * The render when no token budget is asked for: as {@link renderSections}
 * gives it, unless a section of `keep` (the user's own texts) was left out
 * for want of room. Then the repository's text is cut, with the budget's
 * steps and its repository-first round, counted in characters against the
 * prompt's 8 MiB, until that section has room; a `room-cut` warning names
 * each cut. When none of them comes back, the first render stands, with
 * fitting's `budget-fit-cut` when it stopped at its work limit; `fitStopped`
 * says so either way (`user-text-left-out` tells it apart).
 */
export function renderWithRoom(
  input: RenderInput,
  engine: Engine,
  keep: ReadonlySet<string>,
  options: Pick<BudgetOptions, "treeLines" | "rootTreeLines" | "appendParts"> = {},
): RenderOutput & { fitStopped?: true } {
  // The first render keeps nothing for fitting: almost every prompt fits, and keeping each
  // section's text and work for reuse made a plain render of a small prompt ~60 us slower.
  // Its compiles are the fit's too: a template is compiled once in all of them.
  const compiles = input.work?.compiles ?? new PromptCompiles();
  const first = renderSections(input, engine, input.work ?? new PromptWork(compiles));
  const wanted = leftOutForRoom(first, keep);
  if (wanted.size === 0) return first;
  const reuse = new SectionReuse(compiles);
  const result = renderWithinBudget(input, engine, {
    ...options,
    maxTokens: MAX_PROMPT_CHARS,
    countTokens: (text) => text.length,
    keep,
    roomOnly: true,
    reuse,
  });
  const stopped = result.diagnostics.filter((d) => d.code === "budget-fit-cut");
  const back = [...wanted].some((name) => result.sections.some((s) => s.name === name));
  // Never one of yours the first render placed given up for another (the estimate weighs them).
  const placed = first.sections.filter((s) => keep.has(s.name));
  const kept = placed.every((p) => result.sections.some((s) => s.name === p.name));
  const fitStopped = result.fitStopped ? { fitStopped: true as const } : {};
  return back && kept
    ? withFields(result, fitStopped, ["budget", "fitStopped"])
    : withFields(first, { diagnostics: [...first.diagnostics, ...stopped], ...fitStopped });
}
