import {
  apartFromLineAbove,
  closedOpenToYours,
  closeOpenBlocks,
  closeOpenBlocksOnOwnLine,
  END_ESCAPED_WORDS,
  escapedWholeWarning,
  holdsPrintedMarks,
  markPrinted,
  markYours,
  PRINTED_CLOSE,
  PRINTED_OPEN,
  type PrintedCut,
  pageTagWarning,
  placePrinted,
  readsWithLineAbove,
  unreadWarning,
  withoutPrintedMarks,
  withoutYoursMarks,
  wrappedBody,
  wrappedElement,
  YOURS_CLOSE,
  YOURS_OPEN,
  yoursIndent,
  yoursPieces,
} from "../_fence.js";
import { withoutLinkDefinitions } from "../_link-definitions.js";
import { escapedWholeText, escapeXml, withNameWork } from "../_prompt-text.js";
import { wellFormed } from "../_text.js";
import type { PromptData } from "../data.js";
import {
  type CountedTemplate,
  type Engine,
  formatPrompt,
  MAX_PROMPT_CHARS,
  type PartialFunction,
  PromptCompiles,
  PromptWork,
  type RenderOptions,
  TemplateError,
} from "../engine/index.js";
import {
  MAX_PROMPT_CALLS,
  MAX_PROMPT_INPUT,
  MAX_PROMPT_NAME_READ,
  MAX_PROMPT_OUTPUT,
  MAX_PROMPT_TAGS,
  MAX_PROMPT_WORDS,
  PARTIAL_PRINT_NAME_UNITS,
} from "../engine/limits.js";
import { fallbackMessage } from "../prompt-templates/hidden-closers.js";
import type { Diagnostic, PromptBlock, RenderedSection, SectionSource } from "../types.js";
import { cutBlocks, SECTION_SEPARATOR } from "./blocks.js";
import { tableRunsAsText } from "./gfm-tables.js";
import {
  CALLS_PARTIAL,
  compareSectionKeys,
  inheritsBody,
  keyClass,
  type SectionKey,
  sectionKey,
} from "./layer.js";
import {
  heldProjectText,
  namesHeldFrom,
  reservedElementNames,
  type YourLabels,
  type YourLine,
} from "./reserved-tags.js";
import { CUSTOM_PROMPT_SECTION, type SectionTemplate } from "./types.js";
import { linesShownInOrder, proseLines, withoutHidden } from "./user-text.js";

/** A custom base prompt (`--system-prompt`, SYSTEM.md, SYSTEM_TEMPLATE.md). */
export interface CustomPrompt {
  text: string;
  /** SYSTEM_TEMPLATE.md is rendered with the section data; SYSTEM.md is literal. */
  template: boolean;
  /** 1-based line of `source.path` on which `text` starts. */
  line?: number;
  source: SectionSource;
  /** The repository's text though given as an option (a project file named by `systemPrompt`, a host's resolved one). */
  repository?: true;
  /** The next candidate (option > project > user), used when this template fails to render. */
  lower?: CustomPrompt;
}

/**
 * A named section given in code (the `sections` option). Its text is used as
 * it is, never rendered as a template. For a name that has a template, it
 * replaces that section's body at the section's place, under its tag, even
 * when a file switched the section off or a custom base prompt replaced it
 * (the caller's word beats files); an empty text removes the section. A new
 * name goes after every stable section and before the volatile ones, in the
 * order given, tagged by its name.
 */
export interface ExtraSection {
  name: string;
  text: string;
}

/**
 * What one section sees instead of the shared data, and lines added at the
 * end of its body (inside its tag). Fitting a token budget renders the
 * sections it shrinks this way; no other section is touched.
 */
export interface SectionPatch {
  /** Data fields replaced for this section only (its `{{> base}}` and fallbacks too). */
  data?: Partial<PromptData>;
  /** Marker lines appended after a blank line; they keep a section whose body is empty. */
  notes?: readonly string[];
}

export interface RenderInput {
  /** Layered section templates, sorted (see `layerSections`). */
  templates: readonly SectionTemplate[];
  /**
   * Units of the element-name reader's meter ({@link PromptWork.readNames})
   * the preparation spent on the repository's texts (appended parts, context
   * and rule files: `withNameBudget`): each render's meter starts from it, so
   * one render reads the repository's texts to one meter (review rev82b F2).
   */
  namesSpent?: number;
  /** Partials available to every template, by name (`{{> name}}`). */
  partials?: Readonly<Record<string, string>>;
  data: PromptData;
  customPrompt?: CustomPrompt | null;
  extraSections?: readonly ExtraSection[];
  /**
   * The element names your layers and texts give (`PreparedPrompt.ownWrapperNames`):
   * a trusted project's section may not write them in its own text.
   */
  ownWrapperNames?: ReadonlySet<string>;
  /** Per-section data and notes, by section name. */
  patches?: ReadonlyMap<string, SectionPatch>;
  /**
   * Sources of the partials from your layers and the builtins: with every
   * section and custom prompt not from the project, they count toward none
   * of the prompt's compile totals ({@link PromptWork.own}).
   */
  ownPartials?: ReadonlySet<string>;
  /** What the renders may spend together; default: a budget of this call's own. */
  work?: PromptWork;
  /**
   * Sections neither rendered nor placed, by name, as if absent. Fitting a
   * token budget leaves out this way the sections the whole prompt had no
   * room for (`leftOut`), so that a cut elsewhere cannot bring them back unfitted.
   */
  leaveOut?: ReadonlySet<string>;
  /**
   * What earlier renders of the same templates and data made, given again:
   * a version rendered before with the same patch (the same object, or none)
   * is not rendered again (see {@link SectionReuse}).
   */
  reuse?: SectionReuse;
  /**
   * When a trusted project's section still rendering stops, on the clock
   * given (`renderStop` in src/render-system-prompt.ts): checked before each
   * one and at each print of a project's partial in it. Absent: none stops for time.
   */
  stopAt?: RenderStop;
}

/** A time on a clock given by the caller: the render reads no clock of its own. */
export interface RenderStop {
  at: number;
  clock: () => number;
}

/**
 * What one template's render spent of the prompt's work ({@link PromptWork}),
 * and the templates it counted (itself, its partials), which a render given
 * back counts again: the prompt's tags are the same whether or not its
 * sections were rendered afresh.
 */
interface WorkCost {
  calls: number;
  produced: number;
  given: number;
  templates: readonly CountedTemplate[];
}

/** The prompt's work so far, every count, as one key. */
function workKey(work: PromptWork): string {
  return `${work.calls}/${work.produced}/${work.given}/${work.tags}/${work.words}`;
}

/**
 * The prompt's compile totals so far, as one key: all that decides whether
 * a template is refused before it runs ("Template not compiled"), whatever
 * the sections before it spent in helper calls and text.
 */
function compileKey(work: PromptWork): string {
  return `compile ${work.tags}/${work.words}/${work.countedTemplates}`;
}

/**
 * The sources of your own and the builtin templates among `input`'s: the
 * sections and custom prompts of every layer but the project's (their lower
 * versions too), and {@link RenderInput.ownPartials}. A project's copy of one
 * of them is the same template, compiled once.
 */
function ownSources(input: RenderInput): ReadonlySet<string> {
  // Made once for a template list (a prepared prompt's, every render and fit of it).
  const made = ownMade.get(input.templates);
  if (
    made !== undefined &&
    made.partials === input.ownPartials &&
    made.custom === input.customPrompt
  )
    return made.own;
  const own = new Set(input.ownPartials);
  for (const template of input.templates) {
    for (let v: SectionTemplate | undefined = template; v !== undefined; v = v.lower) {
      if (v.source.layer !== "project") own.add(v.body);
    }
  }
  for (let c = input.customPrompt ?? undefined; c !== undefined; c = c.lower) {
    if (c.template && c.source.layer !== "project") own.add(c.text);
  }
  ownMade.set(input.templates, { partials: input.ownPartials, custom: input.customPrompt, own });
  return own;
}

const ownMade = new WeakMap<
  readonly SectionTemplate[],
  {
    partials: ReadonlySet<string> | undefined;
    custom: CustomPrompt | null | undefined;
    own: ReadonlySet<string>;
  }
>();

/**
 * The renders of one template set and data, kept across the renders of a fit
 * (token budget or room): a section whose patch did not change is given its
 * earlier text, and the work that text cost is counted again against the
 * prompt's limits, so the prompt is as a render afresh would make it. Without
 * it, every fitting render rendered every section again: a trusted project's
 * loops of ~155,000 helper calls a render, or its 990 one-word sections, spent
 * fitting's work before a step that gave your texts room (review rev38b).
 */
export class SectionReuse {
  /**
   * `compiles`: what the fit's renders compile, one prompt's ({@link PromptCompiles}):
   * each render's work is its own, but a template is compiled once in the whole fit.
   */
  constructor(readonly compiles: PromptCompiles = new PromptCompiles()) {}

  /**
   * What each version rendered to under its patch: its text, or the error it
   * stopped with (a section's own limits: 200,000 helper calls looped over
   * and over; or, with `start`, the prompt's, crossed from that work on).
   */
  private readonly bodies = new Map<
    object,
    {
      patch: SectionPatch | undefined;
      text?: string;
      error?: unknown;
      cost: WorkCost;
      start?: string;
    }
  >();
  private readonly made = new Map<
    object,
    { body: string; patch: SectionPatch | undefined; section: RenderedSection }
  >();
  /** Versions rendered afresh, every render together. */
  rendered = 0;
  /** Helper calls counted again for texts given back, every render together. */
  replayedCalls = 0;

  /**
   * The text `key` (a version or custom prompt) rendered to under `patch`, its
   * work counted; undefined when it must be rendered. Throws the error it
   * stopped with, as a render would: a section failing at its limits in every
   * fitting render spent fitting's helper calls before a step gave your texts room.
   */
  take(key: object, patch: SectionPatch | undefined, work: PromptWork): string | undefined {
    const hit = this.bodies.get(key);
    if (hit === undefined || hit.patch !== patch || work.spent) return undefined;
    const c = hit.cost;
    if (hit.start !== undefined) {
      // Stopped at the prompt's limits: the same again only from the same work on.
      if (hit.start.startsWith("compile ")) {
        // Refused before it ran: the same again from the same totals, its templates not yet counted.
        if (hit.start !== compileKey(work) || c.templates.some((t) => work.hasCounted(t.source)))
          return undefined;
      } else if (hit.start !== workKey(work)) {
        return undefined;
      }
      work.calls += c.calls;
      work.produced += c.produced;
      work.given += c.given;
      work.recount(c.templates);
      // A template refused at the compile totals spends nothing: the sections after it render.
      if (!hit.start.startsWith("compile ")) work.spent = true;
      this.replayedCalls += c.calls;
      throw hit.error;
    }
    // Past a limit, it is rendered again so that it stops as it would.
    const added = c.templates.length > 0 ? work.wouldAdd(c.templates) : undefined;
    if (
      work.calls + c.calls > MAX_PROMPT_CALLS ||
      work.produced + c.produced > MAX_PROMPT_OUTPUT ||
      work.given + c.given > MAX_PROMPT_INPUT ||
      (added !== undefined &&
        (work.tags + added.tags > MAX_PROMPT_TAGS || work.words + added.words > MAX_PROMPT_WORDS))
    ) {
      return undefined;
    }
    work.calls += c.calls;
    work.produced += c.produced;
    work.given += c.given;
    if (added !== undefined) work.recount(c.templates);
    this.replayedCalls += c.calls;
    if (hit.text === undefined) throw hit.error;
    return hit.text;
  }

  /** Renders `key` afresh with `render`, and keeps its text when it renders. */
  fresh(
    key: object,
    patch: SectionPatch | undefined,
    work: PromptWork,
    render: () => string,
  ): string {
    this.rendered++;
    const { calls, produced, given, countedTemplates } = work;
    const start = workKey(work);
    const compileStart = compileKey(work);
    const costSince = (): WorkCost => ({
      calls: work.calls - calls,
      produced: work.produced - produced,
      given: work.given - given,
      templates: work.countedSince(countedTemplates),
    });
    let text: string;
    try {
      text = render();
    } catch (error) {
      // Only the limits' errors are kept (a template error is the same each time, but cheap),
      // and the prompt's compile limit's: a template it refused was tried again in every render.
      if (
        error instanceof TemplateError &&
        (error.reason.startsWith("Render stopped") ||
          error.reason.startsWith("Template not compiled"))
      ) {
        const cost = costSince();
        // Refused before it ran: refused again whenever the same templates were counted before it.
        const refused =
          error.reason.startsWith("Template not compiled") &&
          cost.calls === 0 &&
          cost.produced === 0 &&
          cost.given === 0;
        const spent = refused ? { start: compileStart } : work.spent ? { start } : {};
        this.bodies.set(key, { patch, error, cost, ...spent });
      }
      throw error;
    }
    this.bodies.set(key, { patch, text, cost: costSince() });
    return text;
  }

  /** The section made before of this version's same body and patch, else `make()`'s. */
  section(
    key: object,
    body: string,
    patch: SectionPatch | undefined,
    make: () => RenderedSection | undefined,
  ): RenderedSection | undefined {
    const hit = this.made.get(key);
    if (hit !== undefined && hit.patch === patch && hit.body === body) return hit.section;
    const section = make();
    if (section !== undefined) this.made.set(key, { body, patch, section });
    return section;
  }
}

/**
 * `out` with `fields` replaced or added and the keys of `drop` left out, its text and blocks still made only
 * when read: a spread (`{ ...out }`) reads them, and joined the 8 MiB of a
 * render no one would read (fitting's first render, kept aside).
 */
export function withFields<T extends object>(
  out: RenderOutput,
  fields: T,
  drop: readonly string[] = [],
): Omit<RenderOutput, keyof T> & T {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(out)) {
    if (key === "text" || key === "blocks" || drop.includes(key)) continue;
    copy[key] = (out as unknown as Record<string, unknown>)[key];
  }
  Object.defineProperty(copy, "text", { get: () => out.text, enumerable: true });
  Object.defineProperty(copy, "blocks", { get: () => out.blocks, enumerable: true });
  return Object.assign(copy, fields) as unknown as Omit<RenderOutput, keyof T> & T;
}

export interface RenderOutput {
  text: string;
  /** `text` cut at cache class boundaries (see `cutBlocks`). */
  blocks: PromptBlock[];
  sections: RenderedSection[];
  diagnostics: Diagnostic[];
  /** Sections left out for want of room, every one (`prompt-too-large` names the first five); absent when none. */
  leftOut?: string[];
  /** Characters of each section of `leftOut` that was rendered before it was left out; absent when none. */
  leftOutSizes?: Record<string, number>;
  /**
   * Sections whose render stopped at one of its limits (`Render stopped:`,
   * more than 8 MiB of text, or more helper calls than a render may make)
   * with no version below that rendered in its place; absent when none.
   */
  stopped?: string[];
  /** Sections not rendered because the renders before them spent the prompt's work (`prompt-render-work`); absent when none. */
  unworked?: string[];
}

/**
 * Turns templates and data into the prompt. Pure: no file system, clock or
 * environment, so the same input gives the same bytes (but a trusted
 * project's section still rendering at `input.stopAt`, on its given clock).
 *
 * A template that fails falls back to the version it overrides *whole*: that
 * version's body and frontmatter (tag, order, enabled…), with a located
 * diagnostic. Each problem is reported once. Sections are placed by the
 * {@link sectionKey} of the version used (volatile ones last); see
 * {@link ExtraSection} for sections from code and {@link CustomPrompt} for the
 * custom base prompt, which is the section `system`. Names are unique. `work`:
 * what its renders spend (default `input.work`, else a budget of this call's own).
 */
export function renderSections(
  input: RenderInput,
  engine: Engine,
  work: PromptWork = input.work ?? new PromptWork(),
): RenderOutput {
  // What the preparation read of the repository's texts counts toward the sections' meter.
  if (input.namesSpent !== undefined && work.namesRead < input.namesSpent)
    work.namesRead = input.namesSpent;
  const diagnostics: Diagnostic[] = [];
  const partials = input.partials ?? {};
  const placed: { key: SectionKey; section: RenderedSection }[] = [];
  // The prompt's length so far, and the sections left out for want of room.
  let total = 0;
  // Characters of the sections placed or left out so far: a section left out
  // was rendered all the same, and a thousand of megabytes each ran out of memory.
  let worked = 0;
  const over: string[] = [];
  const overSizes: Record<string, number> = {};
  const stopped = new Set<string>();
  let overPath: string | undefined;
  work.own = ownSources(input);
  // Sections not rendered because the renders before them spent the prompt's work.
  const unworked: string[] = [];
  const names = new Set<string>();
  const rendered = new Map<SectionTemplate, string | undefined>();
  // The project's partials already reported as left open (one warning each).
  const openPartials = new Set<string>();
  // The texts a start tag acting on the whole page was written `&lt;` in, said once (rev80c F4).
  const pageTagsSaid = new Set<string>();
  // The project's partials left out of a template of yours, or escaped whole there, past the meter: said once each (rev89g F1).
  const unreadPartials = new Set<string>();
  const wholePartials = new Set<string>();
  // Each project partial's text held and closed this render, by its text ({@link finishedPartial}).
  const finishedPartials = new Map<string, FinishedPartial>();
  // Whether a trusted project's section is rendering now: past `input.stopAt` it stops ({@link late}).
  let projectRendering = false;
  // Whether the project's custom base prompt (its SYSTEM_TEMPLATE.md) is rendering now ({@link holdPartial}).
  let projectCustom = false;
  // The project's partials whose print in a template of yours failed: left out unrun after (rev91a F2).
  const failedPartials = new Set<string>();
  const fromCode = new Map((input.extraSections ?? []).map((e) => [e.name, e.text]));
  // The elements a trusted project's section may not write in its own text (rev52b F14).
  let reserved: ReadonlySet<string> | undefined;
  // Each text of several lines the data holds is marked where a template prints it
  // ({@link placePrinted}); `marked` counts the marks, so a render that printed none is not read again.
  const dataTexts = textsOfSeveralLines(input.data);
  // What the last render of this data judged of each version's text, given back when it is the same.
  const memo = textMemoOf(input.data);
  /** The texts of a budget's patch to the data of the section rendering now. */
  let patchTexts: SeveralLines | undefined;
  /** The custom base prompt's text, which templates see as `customPrompt`. */
  let customText: string | undefined;
  /** The marks the renders so far wrote: a render that wrote none is not read again. */
  let marks = 0;
  const printed = (value: unknown): unknown => {
    if (typeof value !== "string") return value;
    // By length first: a block's output (a new string each time) is not hashed whole.
    const n = value.length;
    const found =
      dataTexts.lengths.has(n) && dataTexts.texts.has(value)
        ? dataTexts
        : patchTexts?.lengths.has(n) && patchTexts.texts.has(value)
          ? patchTexts
          : value === customText
            ? undefined
            : null;
    if (found === null) return value;
    marks++;
    return markPrinted(value, found !== undefined && !found.holdMarks.has(value));
  };
  const custom = input.customPrompt ? renderCustom(input.customPrompt) : null;
  if (custom !== null && (custom.text.includes("\n") || custom.text.includes("\r")))
    customText = custom.text;
  // What templates see as `customPrompt` is the custom base prompt in use, if any.
  const data: PromptData = { ...input.data, customPrompt: custom?.text ?? null };

  if (custom !== null) {
    // The custom prompt takes the place of the first base section, enabled or
    // not; with no base section at all (every layer removed them) it leads.
    const first = input.templates.find((t) => t.meta.base);
    place(
      first ? sectionKey(first) : LEADING,
      makeSection(CUSTOM_PROMPT_SECTION, custom.text, false, custom.source),
    );
  }
  const early = renderedEarly();
  for (const template of input.templates) {
    if (total >= MAX_PROMPT_CHARS || worked >= MAX_RENDER_WORK) {
      // Full, or enough rendered to fill it twice: not even rendered (each could be megabytes more).
      if (template.meta.enabled) over.push(template.name);
      continue;
    }
    if (input.leaveOut?.has(template.name)) continue;
    // A section the caller gave in code is its own text, never a project's work: placed
    // where it belongs, spent or not (rev89g F2: named "left out, not rendered", yet printed last).
    const code = fromCode.get(template.name);
    if (code !== undefined) {
      fromCode.delete(template.name);
      place(
        sectionKey(template),
        makeSection(template.name, code, template.meta.tag, { layer: "option" }),
      );
      continue;
    }
    if (work.spent && !early.has(template)) {
      if (template.meta.enabled) unworked.push(template.name);
      continue;
    }
    const used = chooseVersion(template);
    if (!used) continue;
    const { source } = used.version;
    const patch = input.patches?.get(template.name);
    const make = () => madeSection(memo, used.version, template.name, used.text, source, patch);
    place(
      sectionKey(used.version),
      input.reuse ? input.reuse.section(used.version, used.text, patch, make) : make(),
    );
  }
  let given = 0;
  for (const [name, text] of fromCode) {
    place(
      [0, Number.POSITIVE_INFINITY, given++],
      makeSection(name, text, name, { layer: "option" }),
    );
  }
  if (over.length > 0) diagnostics.push(overDiagnostic(over, overPath));
  if (unworked.length > 0) diagnostics.push(unworkedDiagnostic(unworked));
  // Stable: the custom prompt stays before a section that shares its key.
  const sorted = placed.sort((a, b) => compareSectionKeys(a.key, b.key));
  const sections = sorted.map((p) => p.section);
  for (const name of names) stopped.delete(name);
  // The whole text and its blocks are made when first read: fitting's renders read only
  // their sections, and joining 8 MiB for each of them took memory and time for nothing.
  const rest = {
    sections,
    diagnostics,
    ...(over.length > 0 ? { leftOut: over } : {}),
    ...(Object.keys(overSizes).length > 0 ? { leftOutSizes: overSizes } : {}),
    ...(stopped.size > 0 ? { stopped: [...stopped] } : {}),
    ...(unworked.length > 0 ? { unworked } : {}),
  };
  const makeBlocks = (joined?: string) =>
    cutBlocks(
      sorted.map((p) => ({ section: p.section, cache: keyClass(p.key) })),
      joined,
    );
  // A plain render's text and blocks are made at once: an object of getters made every
  // render of a small prompt three times slower (review of room38's bench, 59 -> 283 us).
  if (!input.reuse) {
    const text = sections.map((s) => s.text).join(SECTION_SEPARATOR);
    return { text, blocks: makeBlocks(text), ...rest };
  }
  let text: string | undefined;
  let blocks: PromptBlock[] | undefined;
  return {
    get text() {
      text ??= sections.map((s) => s.text).join(SECTION_SEPARATOR);
      return text;
    },
    get blocks() {
      blocks ??= makeBlocks();
      return blocks;
    },
    ...rest,
  };

  /**
   * rev54a F8: the sections that are not a trusted project's (the builtins',
   * your layers', none a `sections` in code gives), rendered before any of the
   * project's, each version's text kept ({@link renderBody}); placed in prompt
   * order after, as every section is, so room is taken as before. A project's
   * sections ordered first spent the prompt's whole work, and your sections,
   * `--guideline`s and `AGENTS.md` after them were left out unrendered. With no
   * project section, none: sections render as they are placed.
   */
  function renderedEarly(): ReadonlySet<SectionTemplate> {
    const early = new Set<SectionTemplate>();
    if (!input.templates.some((t) => t.source.layer === "project" && !fromCode.has(t.name)))
      return early;
    for (const template of input.templates) {
      if (template.source.layer === "project" || fromCode.has(template.name)) continue;
      if (input.leaveOut?.has(template.name)) continue;
      // Spent by the builtins' and yours: the rest are left out as before (`prompt-render-work`).
      if (work.spent) break;
      chooseVersion(template);
      early.add(template);
    }
    return early;
  }

  /**
   * What `render` renders, with each text of several lines it printed placed
   * where it landed ({@link placePrinted}). A render that printed none (no
   * mark written) is not read again.
   */
  function placedText(render: () => string, source: SectionSource, key: object): string {
    const before = marks;
    const text = render();
    if (marks === before) return text;
    const onCut = cutWarning(source);
    // The same text as the last render of this data gave: placed as it was (review render-hb).
    const hit = memo.placed.get(key);
    if (hit !== undefined && hit.text === text) {
      for (const cut of hit.cuts) onCut(cut);
      return hit.placed;
    }
    const cuts: PrintedCut[] = [];
    const placed = placePrinted(text, (cut) => {
      cuts.push(cut);
      onCut(cut);
    });
    memo.placed.set(key, { text, placed, cuts });
    return placed;
  }

  /** A `printed-value-cut` warning for the section of `source`, when a value's lines were left out. */
  function cutWarning(source: SectionSource): (cut: PrintedCut) => void {
    return (cut) =>
      diagnostics.push({
        level: "warning",
        code: "printed-value-cut",
        message: `a text of several lines printed inside a list item, block quote or block of the template had too many short lines to keep there: ${cut.lines} lines left out`,
        ...(source.path ? { path: source.path } : {}),
      });
  }

  function dataFor(name: string): PromptData {
    const patch = input.patches?.get(name)?.data;
    return patch ? { ...data, ...patch } : data;
  }

  /**
   * Adds a section unless its name is taken. Files and options never repeat
   * a name (layering merges them, `system` is reserved); hand-built input to
   * this function might, and a result with a name twice would break
   * `diffSections`.
   */
  function place(key: SectionKey, section: RenderedSection | undefined) {
    if (!section || input.leaveOut?.has(section.name)) return;
    if (names.has(section.name)) {
      diagnostics.push({
        level: "warning",
        code: "section-name",
        message: `a second section named "${section.name}"; left out (names in a prompt are unique)`,
        ...(section.source.path ? { path: section.source.path } : {}),
      });
      return;
    }
    names.add(section.name);
    worked += section.text.length;
    if (total + section.text.length > MAX_PROMPT_CHARS) {
      over.push(section.name);
      overSizes[section.name] = section.text.length;
      overPath ??= section.source.path;
      return;
    }
    total += section.text.length + SECTION_SEPARATOR.length;
    placed.push({ key, section });
  }

  /**
   * The first candidate of the custom prompt chain that renders, with its
   * source; null when every one fails (the builtin base sections apply).
   * A template renders with `customPrompt: null`: it is what is being decided.
   */
  function renderCustom(
    prompt: CustomPrompt | undefined,
  ): { text: string; source: SectionSource } | null {
    if (!prompt) return null;
    // A custom base prompt (SYSTEM.md, a project's too) leaves no fence, HTML block or comment
    // open over the sections after it.
    // A literal one that may be the repository's defines no link label, as its APPEND_SYSTEM.md (rev66f F3).
    if (!prompt.template) {
      const text = mayBeRepository(prompt) ? withoutLinkDefinitions(prompt.text) : prompt.text;
      return { text: closedCustom(prompt, text), source: prompt.source };
    }
    try {
      const render = () => {
        const outer = projectCustom;
        projectCustom = mayBeRepository(prompt);
        try {
          return placedText(
            () =>
              withoutYoursMarks(
                engine.render(prompt.text, { ...input.data, customPrompt: null }, renderOptions()),
              ),
            prompt.source,
            prompt,
          );
        } finally {
          projectCustom = outer;
        }
      };
      const reuse = input.reuse;
      const text = reuse
        ? (reuse.take(prompt, undefined, work) ?? reuse.fresh(prompt, undefined, work, render))
        : render();
      return { text: closedCustom(prompt, text), source: prompt.source };
    } catch (error) {
      const next = prompt.lower ? describeCustom(prompt.lower) : "the builtin base prompt";
      // Spent, no fallback renders: said so, not a base prompt that is left out too (rev89g F1).
      const instead = work.spent
        ? `it spent the work one prompt's renders may do together: ${next} and the sections after it are not rendered (see prompt-render-work)`
        : `${next} is used instead`;
      diagnostics.push(templateDiagnostic(error, prompt.source, prompt.line ?? 1, instead));
      return renderCustom(prompt.lower);
    }
  }

  /**
   * The options of every render of a template here (a section's, your custom
   * base prompt's): the project's partials it reaches are held and closed by
   * {@link projectPartial} whoever's template calls them. Your SYSTEM_TEMPLATE.md's
   * `{{> footer}}` printed the project's partial raw (rev57b F1). `base`: what
   * `{{> base}}` inserts, for a section over another.
   */
  function renderOptions(base?: PartialFunction): RenderOptions {
    return {
      partials: base ? { ...partials, base } : partials,
      work,
      partialText: projectPartial,
      printed,
      holdPartial,
      partialFailed,
      compileStop: input.stopAt === undefined ? undefined : compileLate,
      blockText,
      blockValue,
    };
  }

  /**
   * fx96b (review rev93g F2): what a partial block of yours prints
   * (`{{#> policy}}your text{{/policy}}` in your section, partial or
   * SYSTEM_TEMPLATE.md) through a trusted project's partial's
   * `{{> @partial-block}}`, marked yours ({@link markYours}) when a project's
   * partial runs around it, below the template it is written in:
   * {@link projectPartial} keeps it as you wrote it, and finishes the
   * project's text before and after it apart. Before, the whole print was
   * finished as the project's: your `<kbd>` written `&lt;kbd>`, and the
   * project's `<!-- {{> @partial-block}} -->` hid your text. In a template of
   * the project's (its section, its SYSTEM_TEMPLATE.md, its partial) a block's
   * text is the project's, as before. Kept, your block runs with the context
   * and data of your call, so the project's partial cannot make it print a
   * text of its own (`{{> @partial-block cwd="</my_policy>"}}`, its
   * `{{#each}}`). A print with nothing but blanks is not marked (nothing of
   * yours to keep).
   */
  function blockText(
    writer: string | undefined,
    within: readonly string[],
  ): ((text: string, indent: string) => string) | undefined {
    const own = input.ownPartials;
    if (own === undefined || projectRendering || projectCustom) return undefined;
    if (writer !== undefined && !own.has(writer)) return undefined;
    const from = writer === undefined ? 0 : within.lastIndexOf(writer) + 1;
    let inProject = false;
    for (let i = from; i < within.length && !inProject; i++)
      inProject = !own.has(within[i] as string);
    return inProject ? markedYours : undefined;
  }

  /**
   * rev91a F2: a trusted project's partial printed in a template of yours (your
   * section, your `SYSTEM_TEMPLATE.md`, a builtin's) fails alone, as the
   * name meter stops it alone (rev89g F1, {@link finishedPartial}): the engine
   * holds its outermost print ({@link RenderOptions.holdPartial}) and prints
   * {@link partialFailed}'s text in its place; a print of a name that failed
   * before is left out unrun. In a template of the project's its failure is
   * that template's, as before.
   */
  function holdPartial(name: string, source: string): "hold" | "skip" | undefined {
    if (input.ownPartials === undefined || input.ownPartials.has(source)) return undefined;
    if (projectRendering || projectCustom) return undefined;
    return failedPartials.has(name) ? "skip" : "hold";
  }

  /** A held print of the project's partial `name` that failed: left out (`""`), said once with its place and cause. */
  function partialFailed(name: string, error: TemplateError): string {
    failedPartials.add(name);
    diagnostics.push(partialFailedWarning(name, error));
    return "";
  }

  /**
   * The elements no text of the repository's may write, found once a render
   * prints one (rev52b F14): a trusted project's section, partial or custom
   * base prompt.
   */
  function reservedNames(): ReadonlySet<string> {
    reserved ??= reservedElementNames(input.templates, input.extraSections, input.ownWrapperNames);
    return reserved;
  }

  /**
   * A custom base prompt ({@link heldCustom}) with no fence, HTML block, comment or hiding
   * element left open over the sections after it; yours is kept as you wrote it where its
   * elements cannot be read, with a warning ({@link unreadWarning}).
   */
  function closedCustom(prompt: CustomPrompt, text: string): string {
    const path = prompt.source.path ? { path: prompt.source.path } : {};
    // Your words printed right after it (`{{customPrompt}}` then your line) are shown (rev68c F1).
    if (mayBeRepository(prompt))
      return closedOpenToYours(heldCustom(prompt, text), " ", {
        // Past the render's budget, or more than a reading takes: said, not silent (rev68e F3).
        onFallback: (f, limit) =>
          diagnostics.push({
            ...projectFallback("custom base prompt", fallbackMessage(f, limit)),
            ...path,
          }),
        onEscaped: () =>
          diagnostics.push({
            level: "warning",
            code: "project-section-open",
            message: `the project's custom base prompt ${END_ESCAPED_WORDS}`,
            ...path,
          }),
      });
    return closeOpenBlocksOnOwnLine(text, {
      unread: () =>
        diagnostics.push(unreadWarning(prompt.source.path, printedCause(prompt, text, input.data))),
    });
  }

  /**
   * A custom base prompt that may be the repository's (a project's SYSTEM.md,
   * its SYSTEM_TEMPLATE.md's render, a project file named by `systemPrompt`)
   * held as a project's section is: before, SYSTEM.md wrote a second
   * `<user_instructions path="~/.pi/agent/AGENTS.md">` raw (rev56c F3).
   */
  function heldCustom(prompt: CustomPrompt, text: string): string {
    if (!mayBeRepository(prompt)) return text;
    return heldProject(
      text,
      { names: reservedNames(), ownerMark: true },
      yourTexts(input.data),
      undefined,
      pageTagSaid(prompt.source.path),
    );
  }

  /** Tells a trusted project's text's first start tag acting on the whole page, once a file (rev80c F4-F8). */
  function pageTagSaid(path: string | undefined): (line: number, tag: string) => void {
    return (line, tag) => {
      const key = path ?? "";
      if (pageTagsSaid.has(key)) return;
      pageTagsSaid.add(key);
      diagnostics.push(pageTagWarning(path, line, tag));
    };
  }

  /**
   * The version of a section that applies, with its text: the highest one
   * that renders. A disabled version switches the section off (nothing below
   * it is tried); a failed one hands over to the version below it, whole.
   */
  function chooseVersion(
    template: SectionTemplate | undefined,
  ): { version: SectionTemplate; text: string } | undefined {
    if (!template?.meta.enabled) return undefined;
    if (custom !== null && template.meta.base) return undefined;
    const text = renderBody(template);
    return text === undefined ? chooseVersion(template.lower) : { version: template, text };
  }

  /** What `{{> base}}` inserts: the lower version's body, or its own fallback's, whatever its frontmatter. */
  function baseText(template: SectionTemplate | undefined): string {
    if (!template) return "";
    return renderBody(template) ?? baseText(template.lower);
  }

  /**
   * One version's own body; undefined (and a diagnostic) when it fails.
   * Rendered once per call: `{{> base}}` of the version above and the
   * fallback from it may both reach a broken file, which is one problem.
   */
  function renderBody(template: SectionTemplate): string | undefined {
    if (!rendered.has(template)) rendered.set(template, renderOnce(template));
    return rendered.get(template);
  }

  function renderOnce(template: SectionTemplate): string | undefined {
    if (inheritsBody(template)) return baseText(template.lower);
    const lower = template.lower;
    let inserted: string | undefined;
    // `{{> base}}` alone on a line is a standalone partial: Handlebars drops
    // that line's newline and expects the partial to bring its own. A lower
    // file without a final newline would otherwise run into the next line.
    const base = lower
      ? () => {
          inserted ??= withFinalNewline(baseText(lower));
          return inserted;
        }
      : undefined;
    const render = () => {
      const patch = input.patches?.get(template.name)?.data;
      const outerPatch = patchTexts;
      const outerProject = projectRendering;
      patchTexts = patch ? textsOfSeveralLines(patch) : undefined;
      projectRendering = template.source.layer === "project";
      try {
        late();
        return placedText(
          () =>
            withoutYoursMarks(
              engine.render(template.body, dataFor(template.name), renderOptions(base)),
            ),
          template.source,
          template,
        );
      } finally {
        patchTexts = outerPatch;
        projectRendering = outerProject;
      }
    };
    const reuse = input.reuse;
    const patch = input.patches?.get(template.name);
    try {
      const text = reuse
        ? (reuse.take(template, patch, work) ?? reuse.fresh(template, patch, work, render))
        : render();
      if (template.source.layer !== "project") return text;
      // Given back by a reuse, the render did not call `{{> base}}`: what it inserts is taken again.
      const yours = inserted ?? (lower && CALLS_PARTIAL.test(template.body) ? base?.() : undefined);
      const names = namesHeldFrom(template, reservedNames());
      const data = dataFor(template.name);
      const labels = yourLabels(data);
      const held = heldProject(
        text,
        names,
        [
          ...(yours === undefined ? [] : [yours]),
          ...yourTexts(data),
          // Your on-demand rule's line, as the builtin writes it, ends `— path (owner="user")`.
          ...(names.aroundYours?.has("rule") ? yourMarkedLines(data) : []),
          ...(names.markedLines ?? []),
        ],
        labels,
        pageTagSaid(template.source.path),
        labelOpenSaid(template),
      );
      // Judged as it is printed: a block it leaves open is closed at its end first.
      const closed = closedProject(held, template);
      yoursNotPrinted(template, closed);
      return closed;
    } catch (error) {
      if (error instanceof TemplateError && error.reason.startsWith("Render stopped:"))
        stopped.add(template.name);
      const fallback = lower
        ? `the ${lower.source.layer} version is used instead`
        : "the section is left out";
      diagnostics.push(templateDiagnostic(error, template.source, template.bodyLine, fallback));
      return undefined;
    }
  }

  /**
   * rev51b F5: a trusted project's section over yours that calls a partial
   * (`{{> base}}`, with arguments too) keeps your text only if your body reached
   * its render where a reader sees it: a call inside `{{#if false}}`, a
   * Handlebars comment, a raw block, `\{{> base}}`, an inline partial named
   * base, `<!-- -->`, `<?…?>`, `<![CDATA[…]]>`, `<!X…>` or a `<script>` printed
   * none of it. Judged on the text rendered (each non-blank line of your body,
   * trimmed, is in it, in order, both read without what is never shown,
   * {@link withoutHidden}: a call in a list item indents it; a line in a
   * fence, `<pre>` or `<textarea>` of the project's is not shown, rev56c F10,
   * {@link linesShownInOrder}), not on the source; a `user-text-left-out` warning names both files otherwise. A
   * section that calls no partial at all is warned about before rendering
   * (`replacedByProject`).
   */
  function yoursNotPrinted(template: SectionTemplate, text: string): void {
    // Yours below the project's versions (a variant `usec@all.md` over its plain `usec.md`).
    let lower = template.lower;
    while (lower?.source.layer === "project") lower = lower.lower;
    if (lower?.source.layer !== "user" || !lower.meta.enabled || !template.meta.enabled) return;
    // One that calls no partial is said before rendering (`replacedByProject`).
    if (inheritsBody(template) || !CALLS_PARTIAL.test(template.body)) return;
    // Both sides read alike: a line of yours an HTML reader never shows is not one to find.
    // Like with like: your lines outside your own code, found outside the code of what was printed.
    const yours = proseLines(withoutHidden(withoutPrintedMarks(baseText(lower)), "all"));
    if (yours.length === 0) return;
    const shown = withoutHidden(withoutPrintedMarks(text));
    if (linesShownInOrder(shown, yours) === yours.length) return;
    diagnostics.push({
      level: "warning",
      code: "user-text-left-out",
      message: `your section "${template.name}" (${lower.source.path ?? "yours"}) is left out: the project's ${template.source.path ?? "section"} takes its place, and what it printed holds none of your text where a reader sees it (not in a comment, a script, a processing instruction or a declaration; a project's section of a name replaces yours, as in pi); run with --untrusted, or remove the project's file, to have yours back`,
      ...(template.source.path ? { path: template.source.path } : {}),
    });
  }

  /**
   * A trusted project's partial (one no layer of yours nor the builtins has
   * with that source), closed as its sections are ({@link closedProject}):
   * over a partial of yours it is printed inside your section, and a fence it
   * left open made the rest of your section and every later one code. Its
   * text always ends with a line break (given one when it has none), and so
   * does a closer added to it: Handlebars drops the line break after a
   * `{{> name}}` alone on its line and expects the partial to bring its own,
   * so a partial without one was joined to your next line after it was
   * judged (a closer and your line close nothing; `<!-` and your `- item`
   * make `<!--`, `~~` and your `~/…` a fence). Called mid-line, what follows
   * the call on your line starts a line of its own.
   */
  function projectPartial(name: string, source: string, text: string, indented = false): string {
    if (input.ownPartials === undefined || input.ownPartials.has(source)) return text;
    late();
    // Marks that do not pair are dropped, the pairs kept ({@link yoursPieces}, review rev98b F1).
    const pieces = yoursPieces(text);
    if (pieces === undefined) return projectPiece(name, text, indented, false);
    // What your partial block printed in it ({@link blockText}) kept as you wrote it, marked for a
    // project's partial around this one; the project's text before and after it finished apart.
    let out = "";
    let indent = "";
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as string;
      if (i % 2 === 1) {
        // The indentation Handlebars gave your block's call, as told (rev102b F6); for a piece a
        // project's partial marked again, the blanks before it.
        const told = yoursIndent(piece);
        out += markYours(withoutIndent(told.text, told.indent ?? indent));
        continue;
      }
      const beforeYours = i + 1 < pieces.length;
      // The blanks before your block's first line (`    {{> @partial-block}}`, which Handlebars
      // writes before each of its lines) are not written: your block starts at column 0, and
      // after the blank line below four of them made it indented code (rev99b F4).
      const blanks = beforeYours ? trailingBlanks(piece) : 0;
      const theirs = piece.slice(0, piece.length - blanks);
      indent = piece.slice(piece.length - blanks);
      const shows = /\S/.test(theirs);
      // A blank line between your text and the project's on either side: no inline construct, link
      // definition, title or alt spans one, so none the pieces make joined holds your text (rev98b F2).
      if (i > 0 && shows) out += blankLineAfter(out);
      if (theirs !== "") out += projectPiece(name, theirs, indented, beforeYours);
      if (beforeYours && shows) out += blankLineAfter(out);
    }
    return out;
  }

  /**
   * A project partial's `text` (or a piece of it: its text before or after
   * what your partial block printed in it, `beforeYours` when yours follows)
   * finished as {@link projectPartial} says, with its warnings.
   */
  function projectPiece(
    name: string,
    text: string,
    indented: boolean,
    beforeYours: boolean,
  ): string {
    const finished = finishedPartial(name, text);
    if (finished === undefined) {
      // Printed in a template of yours with the repository's meter spent: this print alone is left out (rev89g F1).
      if (!unreadPartials.has(name)) {
        unreadPartials.add(name);
        diagnostics.push(partialLeftOutWarning(name));
      }
      return "";
    }
    const { ended, closed, fallback, escaped } = finished;
    // Printed after your words (`Notes: {{> p}}`, a tag line), read from a block start of its own (rev66f F1);
    // judged where your template prints it, inside your fence too (rev68c F3).
    const apart = apartFromLineAbove(closed);
    const atCall = indented ? apart : printedWhereCalled(apart);
    // A table's `<` written `&lt;` is no block left open.
    const tables = tableRunsAsText(ended);
    if (escaped) {
      diagnostics.push({
        level: "warning",
        code: "project-section-open",
        message: `the project's partial "${name}" (its .pi/partials/${name}.md) ${END_ESCAPED_WORDS}`,
      });
      return atCall;
    }
    if (closed === ended || (tables !== ended && closed === `${tables}\n`)) return atCall;
    // Its HTML written as text (the budget spent, or more than a reading takes): said as such (rev66e F7).
    if (fallback !== undefined) {
      if (!openPartials.has(name)) {
        openPartials.add(name);
        diagnostics.push(
          projectFallback(`partial "${name}" (its .pi/partials/${name}.md)`, fallback),
        );
      }
      return atCall;
    }
    const said = beforeYours ? `${name}\n{{> @partial-block}}` : name;
    if (!openPartials.has(said)) {
      openPartials.add(said);
      diagnostics.push({
        level: "warning",
        code: "project-section-open",
        message: beforeYours
          ? `the project's partial "${name}" (its .pi/partials/${name}.md) leaves a fenced code block, an HTML block, a comment, a link definition's title or an element no reader shows (<div hidden>, <template>, <details>) open before the text of your partial block it prints ({{> @partial-block}}): closed there, so your text is shown as you wrote it`
          : `the project's partial "${name}" (its .pi/partials/${name}.md) leaves a fenced code block, an HTML block, a comment, a link definition's title or an element no reader shows (<div hidden>, <template>, <details>) open at its end: closed there, and printed inside a fenced code block or HTML block of your template, its lines that would end your block are written as text, so it runs over none of the text after it`,
      });
    }
    return atCall;
  }

  /**
   * A project partial's text held and closed ({@link projectPartial}), once
   * per render for the same text: a partial of a megabyte printed twenty
   * times was held and closed at each print, 7-14 s of CPU past a 1 s
   * deadline (review rev80b F1). Both depend on the text alone (the render's
   * names and your texts); its check is spent once, and each print is placed
   * where it is called and warned about as before.
   */
  function finishedPartial(name: string, text: string): FinishedPartial | undefined {
    const kept = finishedPartials.get(text);
    if (kept !== undefined) return kept;
    // Printed in a template of yours (or a builtin's): the meter spent stops this print alone,
    // never your template (rev89g F1: it stopped your section, and every one after it).
    if (!projectRendering && work.namesRead + PARTIAL_PRINT_NAME_UNITS > MAX_PROMPT_NAME_READ)
      return undefined;
    // Its fixed cost charged, whatever its length: 8,000 prints of new texts were free (rev88b F1).
    work.readNames(PARTIAL_PRINT_NAME_UNITS);
    // Its text is the repository's wherever it is printed, in your section too (rev56c F9).
    const args: Parameters<typeof heldProjectText> = [
      withoutPrintedMarks(text),
      { names: reservedNames(), ownerMark: true },
      yourTexts(input.data),
      undefined,
      pageTagSaid(`.pi/partials/${name}.md`),
    ];
    const held = projectRendering ? heldProject(...args) : heldInYours(name, args);
    const ended = withFinalNewline(held);
    // What a fallback's warning says ({@link fallbackMessage}), when one was taken.
    let fallback: string | undefined;
    let escaped = false;
    // Your words after the call (`Work as {{> note}} says`) continue its last line's paragraph: shown (rev67b F4).
    const closed = closedOpenToYours(ended, "", {
      onFallback: (f, limit) => (fallback = fallbackMessage(f, limit)),
      onEscaped: () => {
        escaped = true;
      },
    });
    const finished = { ended, closed, fallback, escaped };
    finishedPartials.set(text, finished);
    return finished;
  }

  /**
   * Stops a trusted project's section rendering past {@link RenderInput.stopAt}
   * (before it starts, and at each print of a project's partial in it) as the
   * prompt's limits stop it: a `template` error on it, the project's sections
   * after it left out unrendered (`prompt-render-work`); yours, rendered before
   * any of the project's ({@link renderedEarly}), stay (review rev88b F1).
   */
  function late(): void {
    const stop = input.stopAt;
    if (stop === undefined || !projectRendering) return;
    if (stop.clock() < stop.at) return;
    work.spent = true;
    throw new TemplateError(
      "Render stopped: the render's deadline passed while the project's sections rendered (its partials printed again and again, or its loops)",
    );
  }

  /**
   * Stops a compile of a template not yours (a trusted project's section,
   * partial or custom base prompt) past {@link RenderInput.stopAt}: asked by
   * the engine before it and between its pieces (review rev93g F1: such a
   * compile within every cap took 0.5-1.2 s of CPU and read no clock, so
   * 1,663 copies of `{{#if a}}{{../../../a.b}}{{/if}}` ran past the stop). In
   * a project's section or custom base prompt it stops as {@link late} does
   * (the prompt's work spent); a project's partial printed in a template of
   * yours fails alone ({@link holdPartial}), yours kept.
   */
  function compileLate(): void {
    const stop = input.stopAt;
    if (stop === undefined || stop.clock() < stop.at) return;
    if (projectRendering || projectCustom) work.spent = true;
    throw new TemplateError(
      "Render stopped: the render's deadline passed while the project's templates compiled",
    );
  }

  /**
   * {@link heldProjectText} of a project's partial printed in a template of
   * yours (or a builtin's), read to what is left of the render's meter: spent
   * while it is read, the reading stops and the text is escaped whole instead
   * (every opener written `&lt;`, linear: {@link escapedWholeText}, the
   * assembly's fallback), said once, naming the partial's file. The meter is
   * charged what was read, and nothing is thrown: your template prints on
   * (review rev89g F1: the throw stopped your section and the prompt's work).
   */
  function heldInYours(name: string, args: Parameters<typeof heldProjectText>): string {
    const left = MAX_PROMPT_NAME_READ - work.namesRead;
    let read = 0;
    try {
      return withNameWork(
        (units) => {
          read += units;
          if (read > left) throw METER_SPENT_IN_YOURS;
        },
        () => heldProjectText(...args),
      );
    } catch (error) {
      if (error !== METER_SPENT_IN_YOURS) throw error;
      if (!wholePartials.has(name)) {
        wholePartials.add(name);
        diagnostics.push(escapedWholeWarning(`.pi/partials/${name}.md`));
      }
      return escapedWholeText(args[0], args[1].names);
    } finally {
      work.namesRead += read;
    }
  }

  /** {@link heldProjectText}, the element-name reader's work charged to the render's ({@link PromptWork.readNames}). */
  function heldProject(...args: Parameters<typeof heldProjectText>): string {
    return withNameWork(
      (units) => work.readNames(units),
      () => heldProjectText(...args),
    );
  }

  /**
   * A project partial's finished `text` marked ({@link markPrinted}), so that
   * it is judged where your template prints it ({@link placePrinted}), as a
   * data text is: inside your fenced code block, a line of it that would end
   * your fence is written as text. Closed alone, a balanced sample (a
   * ```` ```` ```` fence around a ```` ``` ```` one) closed your fence with its
   * ```` ``` ```` and left its own ```` ```` ```` open over the rest of the
   * prompt (review rev68c F3). Its final line break stays outside the marks:
   * Handlebars indents each line of an indented standalone call's text, and
   * a mark after that break would be a line of its own, indented. A call
   * indented so (`  {{> notes}}` in your list item) is not marked: Handlebars'
   * indent already keeps its lines in your item, and placed again they would
   * be indented twice (known limit: such a call inside your fence is judged
   * alone, as before).
   */
  function printedWhereCalled(text: string): string {
    if (text === "") return text;
    marks++;
    const body = text.endsWith("\n") ? text.slice(0, -1) : text;
    return markPrinted(body, true) + text.slice(body.length);
  }

  /**
   * Told once a section when a trusted project's section left a tag, an
   * attribute's value or a comment open right before a label of yours it
   * keeps (`<span title="` then `<user_instructions path="…">`), written as
   * text there ({@link heldProjectText}): a `project-section-open` warning
   * (review rev105f F3: the label was the span's attributes to an HTML view).
   */
  function labelOpenSaid(template: SectionTemplate): () => void {
    let said = false;
    return () => {
      if (said) return;
      said = true;
      diagnostics.push({
        level: "warning",
        code: "project-section-open",
        message: `the project's section "${template.name}" leaves a tag, an attribute's value or a comment open right before the label it prints around your text (<user_instructions path="…">, <rule … owner="user">), where an HTML reader of the prompt takes the label into it: that markup's "<" is written "&lt;", so the label is read as yours`,
        ...(template.source.path ? { path: template.source.path } : {}),
      });
    };
  }

  /**
   * A trusted project's section as the repository wrote it, with no fenced
   * code block, HTML block or comment left open at its end to run over the
   * sections after it (your `AGENTS.md`, rules, skills), as a project's
   * SYSTEM.md and APPEND_SYSTEM.md are: one left open is closed there, and a
   * `project-section-open` warning names the file.
   */
  function closedProject(text: string, template: SectionTemplate): string {
    let fallback: string | undefined;
    let escaped = false;
    const closed = closeOpenBlocks(text, false, {
      onFallback: (f, limit) => (fallback = fallbackMessage(f, limit)),
      onEscaped: () => (escaped = true),
    });
    // A table's `<` written `&lt;` is no block left open.
    if (closed === tableRunsAsText(text)) return closed;
    const path = template.source.path ? { path: template.source.path } : {};
    // Its HTML written as text (the budget spent, or more than a reading takes): said as such (rev66e F7).
    if (fallback !== undefined) {
      diagnostics.push({ ...projectFallback(`section "${template.name}"`, fallback), ...path });
      return closed;
    }
    // Its unended markup written as text (`see <span hidden`, rev70a F2): said as such.
    if (escaped) {
      diagnostics.push({
        level: "warning",
        code: "project-section-open",
        message: `the project's section "${template.name}" ${END_ESCAPED_WORDS}`,
        ...path,
      });
      return closed;
    }
    diagnostics.push({
      level: "warning",
      code: "project-section-open",
      message: `the project's section "${template.name}" leaves a fenced code block, an HTML block, a comment or an element no reader shows (<div hidden>, <template>, <details>) open at its end; closed there, so it does not run over the sections after it`,
      ...(template.source.path ? { path: template.source.path } : {}),
    });
    return closed;
  }
}

/**
 * For {@link unreadWarning}: undefined when your custom base prompt's check
 * gave up on your own text (a literal one, or a template whose text as you
 * wrote it is unread too); else, your template reading as closed on its own,
 * what its render printed: the paths of the repository's context files and
 * always rules found in it, the first three (rev68e F5). Only on that warning's path.
 */
function printedCause(
  prompt: CustomPrompt,
  text: string,
  data: PromptData,
): readonly string[] | undefined {
  if (!prompt.template || text === prompt.text) return undefined;
  let own = true;
  closeOpenBlocksOnOwnLine(prompt.text, { unread: () => (own = false) });
  if (!own) return undefined;
  const theirs = [...(data.contextFiles ?? []), ...(data.alwaysRules ?? [])].filter(
    (f) => f.origin !== "user" && f.content.trim() !== "" && text.includes(f.content),
  );
  const names = theirs.slice(0, 3).map((f) => f.path);
  return theirs.length > 3 ? [...names, `${theirs.length - 3} more`] : names;
}

/** The warning for a project's section or partial (`what`) whose HTML a fallback wrote as text, not closed: `words`, its {@link fallbackMessage}. */
function projectFallback(what: string, words: string): Diagnostic {
  return {
    level: "warning",
    code: "project-section-markup-as-text",
    message: `the project's ${what} ${words}`,
  };
}

/** Each data object's {@link yourTexts}, found once. */
const yourTextsOf = new WeakMap<PromptData, readonly string[]>();

/**
 * Your own texts a template may print from the data: the contents of your
 * context files (your `AGENTS.md`) and of your always rules. A project's
 * template printing one (its copy of `project_context`, `{{content}}`) prints
 * it as you wrote it: its hold ({@link heldProjectText}) is of the project's
 * own text, and before, your `<team_policy>` came out `&lt;team_policy>` and
 * a false `user-text-left-out` said your file was not in the prompt (review
 * rev57b F7).
 */
function yourTexts(data: PromptData): readonly string[] {
  let texts = yourTextsOf.get(data);
  if (texts === undefined) {
    texts = [...(data.contextFiles ?? []), ...(data.alwaysRules ?? [])]
      .filter((file) => file.origin === "user")
      .map((file) => file.content);
    yourTextsOf.set(data, texts);
  }
  return texts;
}

/**
 * The labels the builtins write around your texts, and for each text of
 * yours each may be around in a project's copy (rev58c F2), its start tags as
 * the builtin writes them from the data (review rev104c F2: a copy's own tag
 * of the name, whatever its attributes, was kept as written around yours):
 * `<user_instructions path="…">` around your context files (`project_context`),
 * `<rule name=… format=… path=… owner="user">` around your always rules
 * (`project_rules`).
 */
function yourLabels(data: PromptData): YourLabels {
  const mine = <T extends { origin: string; content: string }>(
    files: readonly T[] | undefined,
    label: (file: T) => string,
  ) => {
    const labels = new Map<string, string[]>();
    for (const file of files ?? []) {
      if (file.origin !== "user") continue;
      const had = labels.get(file.content);
      if (had === undefined) labels.set(file.content, [label(file)]);
      else had.push(label(file));
    }
    return labels;
  };
  return new Map([
    ["user_instructions", mine(data.contextFiles, (f) => `<user_instructions path="${f.path}">`)],
    [
      "rule",
      mine(
        data.alwaysRules,
        (r) =>
          `<rule name="${r.name}" format="${escapeXml(r.source)}" path="${r.path}" owner="user">`,
      ),
    ],
  ]);
}

/**
 * Each on-demand rule of yours' line as the builtin `project_rules` writes it,
 * `- name (globs): description — path (owner="user")`: a project's copy keeps
 * the owner mark only on such a whole line (review rev104c F2: `path
 * (owner="user")` was kept at the end of any line of the project's).
 */
function yourMarkedLines(data: PromptData): YourLine[] {
  return (data.onDemandRules ?? [])
    .filter((r) => r.origin === "user")
    .map((r) => {
      const globs = r.globsText ? ` (${r.globsText})` : "";
      const description = r.description ? `: ${r.description}` : "";
      return { line: `- ${r.name}${globs}${description} — ${r.path} (owner="user")` };
    });
}

/** "the user SYSTEM.md": the candidate used instead of a failed one (never the option, which is first). */
function describeCustom(prompt: CustomPrompt): string {
  const file = prompt.source.path?.split(/[\\/]/).pop() ?? "custom base prompt";
  return `the ${prompt.source.layer} ${file}`;
}

/** Before every section. */
const LEADING: SectionKey = [0, Number.NEGATIVE_INFINITY, ""];

/**
 * Characters of sections one render works through, kept or left out: past
 * it the rest are left out without being rendered, as when the prompt is full.
 */
const MAX_RENDER_WORK = 2 * MAX_PROMPT_CHARS;

/** Sections named in the diagnostic of a full prompt; the rest are counted. */
const MAX_OVER_NAMED = 5;

/** The first {@link MAX_OVER_NAMED} names, and how many more. */
function namedList(names: readonly string[]): string {
  const named = names.slice(0, MAX_OVER_NAMED).join(", ");
  return names.length > MAX_OVER_NAMED
    ? `${named} and ${names.length - MAX_OVER_NAMED} more`
    : named;
}

function overDiagnostic(over: readonly string[], path: string | undefined): Diagnostic {
  return {
    level: "error",
    code: "prompt-too-large",
    message: `the prompt would be over ${MAX_PROMPT_CHARS / (1024 * 1024)} MiB of text, every section together; left out: ${namedList(over)}`,
    ...(path ? { path } : {}),
  };
}

function unworkedDiagnostic(names: readonly string[]): Diagnostic {
  return {
    level: "error",
    code: "prompt-render-work",
    message: `the sections before these spent the work one prompt's renders may do together (see the template error above); left out, not rendered: ${namedList(names)}`,
  };
}

/** A custom base prompt that may be the repository's: a project's, or a project file given as an option. */
function mayBeRepository(prompt: CustomPrompt): boolean {
  return prompt.source.layer === "project" || prompt.repository === true;
}

/**
 * What a partial block's body gives a template that calls it as a value
 * (`{{#with @partial-block}}`): no mark of the render's, which the template
 * could read and copy (review rev98b F1); the reading template's text.
 */
function blockValue(text: string): string {
  return withoutYoursMarks(withoutPrintedMarks(text));
}

/**
 * What your partial block printed inside a project's partial, marked yours
 * unless it is blanks only, with the indentation Handlebars gave its call
 * ({@link markYours}).
 */
function markedYours(text: string, indent: string): string {
  return /\S/.test(text) ? markYours(text, indent) : text;
}

/** The marks a render puts in a section's text while it runs, removed at its end. */
const RENDER_MARKS = [PRINTED_OPEN, PRINTED_CLOSE, YOURS_OPEN, YOURS_CLOSE];

/**
 * The line breaks that make `text` end with a blank line (rev98b F2): none
 * when its last two line breaks have only spaces, tabs and the render's marks
 * after them. Reads back from its end only as far as that.
 */
function blankLineAfter(text: string): string {
  let breaks = 0;
  for (let at = text.length - 1; at >= 0 && breaks < 2; at--) {
    const code = text.charCodeAt(at);
    if (code === 10) breaks++;
    else if (code === 32 || code === 9) continue;
    else {
      const mark = RENDER_MARKS.find((m) => text.endsWith(m, at + 1));
      if (mark === undefined) break;
      at -= mark.length - 1;
    }
  }
  return "\n".repeat(2 - breaks);
}

/**
 * `yours` (what your partial block printed inside a project's partial) without
 * `indent` (the blanks on its first line before it, in the project's text) at
 * the start of each of its later lines, when every one of them starts with
 * it: Handlebars writes a standalone call's indentation before each line of
 * what it prints but an empty last one (the mark's final line break is after
 * the mark, {@link markYours}), so those lines are yours as you wrote them;
 * a line without it says the call was not indented so, and they are kept
 * (decided, review rev99b F4). Linear.
 */
function withoutIndent(yours: string, indent: string): string {
  if (indent === "" || !yours.includes("\n")) return yours;
  const lines = yours.split("\n");
  for (let i = 1; i < lines.length; i++) if (!(lines[i] as string).startsWith(indent)) return yours;
  return lines.map((line, i) => (i === 0 ? line : line.slice(indent.length))).join("\n");
}

/** How many spaces and tabs end `text` when they are its whole last line (after its last line break, or all of it). */
function trailingBlanks(text: string): number {
  let at = text.length;
  while (at > 0 && (text.charCodeAt(at - 1) === 32 || text.charCodeAt(at - 1) === 9)) at--;
  return at === 0 || text.charCodeAt(at - 1) === 10 ? text.length - at : 0;
}

function withFinalNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/**
 * What renders of one prompt's data judged of each version's text (a
 * section's template, a custom base prompt), kept for the next render of
 * that data and given back only for the same text: rendering a prepared
 * prompt again placed its printed values ({@link placePrinted}) and
 * formatted, trimmed and wrapped its sections ({@link makeSection}) afresh,
 * a third of a render's time (review render-hb). Pure work only: what
 * spends a render's limits or check budget is done every render. One entry
 * per version, held as long as the data.
 */
/**
 * A project partial's text as {@link projectPartial} finished it: held and
 * ended with a line break (`ended`), closed (`closed`), and what the closing
 * said (a fallback's message, an end escaped).
 */
/** Thrown by {@link renderSections}' `heldInYours` meter when spent: caught there, the text escaped whole. */
const METER_SPENT_IN_YOURS: unique symbol = Symbol("meter spent in yours");

/**
 * The warning for a project's partial left out where a template of yours (or
 * a builtin's) prints it: the repository's texts read before it spent the
 * render's meter of the element-name reader; your template is kept (rev89g F1).
 */
function partialLeftOutWarning(name: string): Diagnostic {
  return {
    level: "warning",
    code: "prompt-render-work",
    message: `the project's partial "${name}" is left out where a template of yours prints it: the repository's texts read before it (its rule, context and appended files, sections and partials) gave the element-name reader more work than one render may spend on them, so this text of the repository's was not read; your template around it is kept`,
    path: `.pi/partials/${name}.md`,
  };
}

/**
 * A trusted project's partial that failed where a template of yours prints it
 * (rev91a F2): its place in `.pi/partials/NAME.md` (the render has no path of
 * a project's partial), the cause, and that your template is kept.
 */
function partialFailedWarning(name: string, error: TemplateError): Diagnostic {
  return {
    level: "warning",
    code: "template",
    message: `the project's partial "${name}" failed where a template of yours prints it: ${error.message}; that print is left out (and every later one of it), your template around it is kept`,
    path: `.pi/partials/${name}.md`,
    ...(error.line !== undefined ? { line: error.line } : {}),
    ...(error.column !== undefined ? { column: error.column } : {}),
  };
}

interface FinishedPartial {
  ended: string;
  closed: string;
  fallback: string | undefined;
  escaped: boolean;
}

interface TextMemo {
  /** A version's rendered text, marks and all, and that text placed, with the cuts it was told of. */
  placed: Map<object, { text: string; placed: string; cuts: readonly PrintedCut[] }>;
  /** A version's section as {@link makeSection} made it, and what it was made of. */
  made: Map<
    object,
    { name: string; body: string; tag: string | false; layer: string; notes: string; text: string }
  >;
}

const textMemos = new WeakMap<object, TextMemo>();

function textMemoOf(data: object): TextMemo {
  let memo = textMemos.get(data);
  if (memo === undefined) {
    memo = { placed: new Map(), made: new Map() };
    textMemos.set(data, memo);
  }
  return memo;
}

/** {@link makeSection} of `version`'s body, the text made before of the same body given back. */
function madeSection(
  memo: TextMemo,
  version: SectionTemplate,
  name: string,
  body: string,
  source: SectionSource,
  patch?: SectionPatch,
): RenderedSection | undefined {
  const tag = version.meta.tag;
  const notes = patch?.notes?.join("\n") ?? "";
  const hit = memo.made.get(version);
  if (
    hit !== undefined &&
    hit.body === body &&
    hit.name === name &&
    hit.tag === tag &&
    hit.layer === source.layer &&
    hit.notes === notes
  )
    return { name, text: hit.text, source };
  const section = makeSection(name, body, tag, source, patch);
  if (section === undefined) memo.made.delete(version);
  else memo.made.set(version, { name, body, tag, layer: source.layer, notes, text: section.text });
  return section;
}

/** A formatted, trimmed, tag-wrapped section; undefined when its body (and notes) are empty. */
function makeSection(
  name: string,
  body: string,
  tag: string | false,
  source: SectionSource,
  patch?: SectionPatch,
): RenderedSection | undefined {
  const notes = patch?.notes?.join("\n") ?? "";
  const formatted = wrappedBody(wellFormed(formatPrompt(body)), tag);
  const text = notes === "" ? formatted : formatted === "" ? notes : `${formatted}\n\n${notes}`;
  if (text === "") return undefined;
  // A project's text the tag line above would change starts after a blank line (rev65b F4).
  const apart = source.layer === "project" && readsWithLineAbove(text) ? `\n${text}` : text;
  return { name, text: tag === false ? text : wrappedElement(`<${tag}>`, apart, tag), source };
}

function templateDiagnostic(
  error: unknown,
  source: SectionSource,
  bodyLine: number,
  fallback: string,
): Diagnostic {
  const located = error instanceof TemplateError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return {
    level: "error",
    code: "template",
    message: `${message}; ${fallback}`,
    ...(source.path ? { path: source.path } : {}),
    ...(located?.line !== undefined ? { line: bodyLine + located.line - 1 } : {}),
    ...(located?.column !== undefined ? { column: located.column } : {}),
  };
}

/** The texts of several lines a data object holds ({@link textsIn}), by length too. */
interface SeveralLines {
  texts: Set<string>;
  lengths: Set<number>;
  /** Those that hold a mark's characters, which {@link markPrinted} takes out. */
  holdMarks: Set<string>;
}

/** The texts of several lines each data object holds, kept across renders of the same data. */
const severalLines = new WeakMap<object, SeveralLines>();

/** The texts of several lines `of` holds, found once per object ({@link textsIn}). */
function textsOfSeveralLines(of: object): SeveralLines {
  let found = severalLines.get(of);
  if (found === undefined) {
    const texts = textsIn(of);
    const holdMarks = new Set<string>();
    for (const t of texts) if (holdsPrintedMarks(t)) holdMarks.add(t);
    found = { texts, lengths: new Set([...texts].map((t) => t.length)), holdMarks };
    severalLines.set(of, found);
  }
  return found;
}

/** Each data object's own strings of several lines, found once (its strings are read once). */
const ownTexts = new WeakMap<object, readonly string[]>();

/**
 * The strings of several lines (a line feed or carriage return in them) that
 * `data`'s objects and arrays hold: the values a render marks where a
 * template prints them ({@link placePrinted}), so that one printed inside a
 * list item or a fence of the template stays in it; and those holding a `|`
 * or ending in a `\`, which printed on a table's row of the template is
 * written as one cell (the `\` escaped the cell's `|` after it: rev65b F3). An
 * object's own strings are read once ({@link ownTexts}): a budget's patched
 * data shares the rest, and each render of a fitting walked the megabytes of
 * its texts again.
 */
function textsIn(data: unknown): Set<string> {
  const texts = new Set<string>();
  const seen = new Set<object>();
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    const children: readonly unknown[] = Array.isArray(value) ? value : Object.values(value);
    let own = ownTexts.get(value);
    if (own === undefined) {
      const found: string[] = [];
      for (const child of children) {
        if (
          typeof child === "string" &&
          (child.includes("\n") ||
            child.includes("\r") ||
            child.includes("|") ||
            child.endsWith("\\"))
        )
          found.push(child);
      }
      own = found;
      ownTexts.set(value, own);
    }
    for (const text of own) texts.add(text);
    for (const child of children)
      if (child !== null && typeof child === "object") stack.push(child);
  }
  return texts;
}
