import { xmlNameText } from "../../_prompt-text.js";
import { DEFAULT_DEADLINE_MS, runStep, signalAfter } from "../../gather/deadline.js";
import { belowCwdFormats, findRulesBelowCwd } from "../../gather/rules/index.js";
import type { SystemPromptOptions } from "../../options.js";
import { type PreparedPrompt, preparePrompt, renderPrepared } from "../../render-system-prompt.js";
import { privatePaths, projectReach } from "../../repo-files/index.js";
import type { GivenBy } from "../../resolve-options.js";
import type { CacheClass } from "../../sections/types.js";
import { usedVersion } from "../../sections/used-version.js";
import {
  type BoundedCounter,
  boundedCounter,
  TOKEN_ENCODING,
  type TokenTally,
} from "../../tokens.js";
import type { Diagnostic, RenderResult } from "../../types.js";
import { templatesBesideRender } from "../_render-templates.js";
import type {
  ExplainedContextFile,
  ExplainedRule,
  ExplainedSection,
  ExplainReport,
} from "../types.js";
import { explainSettings } from "./settings.js";

/** The blank line between two sections of the prompt. */
const SEPARATOR = "\n\n";

/**
 * Renders the prompt as `renderSystemPrompt` does and says where every byte
 * came from: each section's order, layer, file, size, estimated tokens and
 * volatility; each setting not at its default and its origin (`givenBy`
 * names who gave `options`); the context files read (imports, cuts, files dedupe dropped);
 * skills and templates counted; the gathering steps; the total; and the
 * cache-stable prefix. Tokens are estimated with the o200k encoding, loaded
 * here on first use. Never throws for what the files hold.
 *
 * @throws SyspromptError for a bad explicit option, as `renderSystemPrompt` does.
 */
export async function explainPrompt(
  options: SystemPromptOptions = {},
  givenBy: GivenBy = "api",
): Promise<ExplainReport> {
  const started = performance.now();
  const prepared = await preparePrompt(options, runStep, givenBy);
  const gathered = performance.now();
  const result = renderPrepared(prepared);
  const renderMs = performance.now() - gathered;
  const promptTemplates = await templatesBesideRender(options, prepared, started);
  // One counter for the report: the prompt's text is counted five times (sections, total,
  // prefixes). Past the render's deadline what is left is estimated, and marked.
  const at = prepared.deadline;
  const count = boundedCounter(at === undefined ? {} : { deadline: { at } });
  const sections = explainSections(prepared, result, count);
  // Within what the render left of its deadline: each folder's ignore check runs every pattern of the walk.
  const deadlineMs = prepared.opts?.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const below = await rulesBelowCwd(prepared, deadlineMs - (performance.now() - started));
  return {
    tokenizer: { encoding: TOKEN_ENCODING, estimate: true },
    sections,
    total: {
      sections: sections.length,
      bytes: byteLength(result.text),
      ...tokens(count.tally(result.text)),
    },
    cacheStablePrefix: stablePrefix(result, sections, count),
    cachePrefix: prefixByClass(result, count),
    contextFiles: {
      folders: prepared.context.folders.length,
      files: explainContextFiles(prepared, count),
    },
    rules: [...explainRules(prepared), ...below.rules],
    skills: { listed: prepared.data.skills.length, tool: prepared.data.skillsTool },
    generalRules: prepared.generalRules ?? null,
    templates: {
      sections: prepared.templates.length,
      partials: Object.keys(prepared.partials).length,
      promptTemplates: promptTemplates.templates.length,
    },
    steps: result.steps,
    timing: { gatherMs: round(gathered - started), renderMs: round(renderMs) },
    ...(result.budget ? { budget: result.budget } : {}),
    // Absent for the default pi when no file of it was read: nothing changed.
    ...(prepared.preset && prepared.preset.sources.length > 0 ? { preset: prepared.preset } : {}),
    settings:
      prepared.options && prepared.origins
        ? explainSettings(prepared.options, prepared.origins, prepared.provenance ?? {})
        : [],
    diagnostics: [
      ...result.diagnostics,
      ...estimatedWarning(count),
      ...below.diagnostics,
      ...promptTemplates.diagnostics.filter((d) => d.code === "load-deadline"),
    ],
  };
}

/** A count as the report holds it: `tokensEstimated` only when part of it was estimated. */
function tokens(tally: TokenTally): { tokens: number; tokensEstimated?: true } {
  return tally.estimated
    ? { tokens: tally.tokens, tokensEstimated: true }
    : { tokens: tally.tokens };
}

/** The one warning that says the report's marked counts were estimated, and how. */
function estimatedWarning(count: BoundedCounter): Diagnostic[] {
  if (!count.estimated) return [];
  return [
    {
      level: "warning",
      code: "tokens-estimated",
      message: `counting the prompt's tokens reached the render's deadline: the counts marked estimated take what was not counted by then at ${count.bytesPerToken.toFixed(1)} bytes a token (the ratio of what was counted); a longer --deadline counts them exactly`,
    },
  ];
}

function explainSections(
  prepared: PreparedPrompt,
  result: RenderResult,
  count: BoundedCounter,
): ExplainedSection[] {
  const classOf = new Map<string, CacheClass>();
  for (const block of result.blocks)
    for (const name of block.sections) classOf.set(name, block.cache);
  return result.sections.map((section) => {
    const version = usedVersion(prepared.templates, section);
    const cache = classOf.get(section.name) ?? "stable";
    // A section from code that replaces a template's body takes its place, not its file.
    const fromCode = section.source.layer === "option";
    return {
      name: section.name,
      order: version?.meta.order ?? null,
      layer: section.source.layer,
      path: section.source.path ?? null,
      overrides: fromCode ? null : (version?.lower?.source.layer ?? null),
      bytes: byteLength(section.text),
      ...tokens(count.tally(section.text)),
      cache,
      volatile: cache === "volatile",
      maxTokens: version?.meta.maxTokens ?? null,
      variant: section.source.variant ?? null,
    };
  });
}

/**
 * The prefixes a provider can keep cached, by class: the leading stable
 * blocks, then those with the session blocks after them (each with the
 * separator that follows it), and the section each ends with.
 */
function prefixByClass(result: RenderResult, count: BoundedCounter): ExplainReport["cachePrefix"] {
  return (["stable", "session"] as const).map((through) => {
    const allowed: CacheClass[] = through === "stable" ? ["stable"] : ["stable", "session"];
    const lead: RenderResult["blocks"] = [];
    for (const block of result.blocks) {
      if (!allowed.includes(block.cache)) break;
      lead.push(block);
    }
    const text = lead.map((b) => b.text).join("");
    const names = lead.flatMap((b) => b.sections);
    return {
      through,
      sections: names.length,
      bytes: byteLength(text),
      ...tokens(count.tally(text)),
      endsWith: names.at(-1) ?? null,
    };
  });
}

/** Everything before the first volatile section, with the separator that follows it. */
function stablePrefix(
  result: RenderResult,
  sections: readonly ExplainedSection[],
  count: BoundedCounter,
): ExplainReport["cacheStablePrefix"] {
  const first = sections.findIndex((s) => s.volatile);
  if (first < 0) {
    return {
      sections: sections.length,
      bytes: byteLength(result.text),
      ...tokens(count.tally(result.text)),
      firstVolatile: null,
    };
  }
  const stable = result.sections.slice(0, first).map((s) => s.text);
  const text = stable.length === 0 ? "" : stable.join(SEPARATOR) + SEPARATOR;
  return {
    sections: first,
    bytes: byteLength(text),
    ...tokens(count.tally(text)),
    firstVolatile: sections[first]?.name ?? null,
  };
}

/**
 * The rule files in folders below cwd that an agent finds there too
 * (Windsurf's `.windsurf/rules`, Claude Code's `CLAUDE.local.md`…): not in
 * the prompt, they come on touch of a path in their folder. Found by a
 * bounded walk, here only: a render never walks the tree for rules. Works
 * from the options the render resolved (the config files' rule sources, the
 * preset's own left out), not a second normalisation of the caller's.
 */
async function rulesBelowCwd(
  prepared: PreparedPrompt,
  leftMs: number,
): Promise<{ rules: ExplainedRule[]; diagnostics: Diagnostic[] }> {
  const opts = prepared.opts;
  if (opts === undefined) return { rules: [], diagnostics: [] };
  const formats = belowCwdFormats(opts.ruleSources);
  if (formats.length === 0) return { rules: [], diagnostics: [] };
  // Past the render's deadline (or once it passes mid-search) the folders below cwd are not
  // searched: a warning says so; the abort is never the report's end.
  if (leftMs < 1) return { rules: [], diagnostics: [belowCwdNotSearched(opts.cwd)] };
  const signal = signalAfter(leftMs);
  const ceiling = opts.ceilingDir ?? undefined;
  let found: Awaited<ReturnType<typeof findRulesBelowCwd>>;
  try {
    const reach = await projectReach({
      start: opts.cwd,
      home: opts.home,
      trusted: opts.trusted,
      ceiling,
      signal,
    });
    const isPrivate = privatePaths(reach.realRoot, { hidden: false, home: opts.home, signal });
    // A folder git ignores holds a build's files; one below ignore rules not read whole may not.
    const ignored = async (path: string) => {
      const verdict = await isPrivate(path);
      return verdict !== undefined && verdict.cut === undefined;
    };
    found = await findRulesBelowCwd(opts.cwd, formats, {
      reach,
      ignored,
      signal,
    });
  } catch (error) {
    if (!signal.aborted) throw error;
    return { rules: [], diagnostics: [belowCwdNotSearched(opts.cwd)] };
  }
  const rules = found.files.map(
    (f): ExplainedRule => ({
      path: f.path,
      source: f.source,
      layer: "project",
      activation: null,
      status: "on-touch",
      // The folder a touched path must be in.
      detail: f.folder,
      cut: false,
    }),
  );
  const diagnostics: Diagnostic[] = found.cut
    ? [
        {
          level: "info",
          code: "rules-below-cwd-cut",
          message:
            "explain searched part of the folders below cwd for rule files that come on touch: the walk stopped at its cap or the deadline",
          path: opts.cwd,
        },
      ]
    : [];
  return { rules, diagnostics };
}

/** The warning of a search below cwd that the deadline stopped before it found where the project ends. */
function belowCwdNotSearched(cwd: string): Diagnostic {
  return {
    level: "warning",
    code: "rules-below-cwd-cut",
    message:
      "explain did not search the folders below cwd for rule files that come on touch: the deadline passed first; a longer --deadline searches them",
    path: cwd,
  };
}

function explainRules(prepared: PreparedPrompt): ExplainedRule[] {
  return prepared.rules.map((a) => {
    const f = a.fate;
    const detail =
      f.status === "deduped"
        ? f.containedIn
        : f.status === "duplicate"
          ? f.sameAs
          : f.status === "shadowed"
            ? f.by
            : "reason" in f
              ? f.reason
              : null;
    return {
      path: a.path,
      source: a.source,
      layer: a.layer,
      activation: a.activation ?? null,
      status: f.status,
      detail,
      cut: a.cut === true,
      ...(a.trimmed ? { leftOut: a.trimmed } : {}),
    };
  });
}

function explainContextFiles(
  prepared: PreparedPrompt,
  count: BoundedCounter,
): ExplainedContextFile[] {
  const content = new Map(prepared.data.contextFiles.map((f) => [f.path, f.content]));
  const dropped = new Map(prepared.context.dropped.map((d) => [d.path, d.containedIn]));
  const trimmed = new Map((prepared.context.trimmed ?? []).map((t) => [t.path, t]));
  return prepared.context.files.map((file) => {
    const text = content.get(xmlNameText(file.path));
    const cut = trimmed.get(file.path);
    return {
      path: file.path,
      status: text === undefined ? "dropped" : "loaded",
      containedIn: dropped.get(file.path) ?? null,
      bytes: text === undefined ? null : byteLength(text),
      ...(text === undefined ? { tokens: null } : tokens(count.tally(text))),
      imports: file.imports,
      cut: file.cut,
      ...(cut ? { leftOut: { paragraphs: cut.left, statedIn: cut.statedIn } } : {}),
    };
  });
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Milliseconds to one decimal: finer than that is noise. */
function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
