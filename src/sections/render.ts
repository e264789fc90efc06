import type { PromptData } from "../data.js";
import { type Engine, formatPrompt, TemplateError } from "../engine/index.js";
import type { Diagnostic, RenderedSection, SectionSource } from "../types.js";
import { inheritsBody } from "./layer.js";
import type { SectionTemplate } from "./types.js";

/** A custom base prompt (`--system-prompt`, SYSTEM.md, SYSTEM_TEMPLATE.md). */
export interface CustomPrompt {
  text: string;
  /** SYSTEM_TEMPLATE.md is rendered with the section data; SYSTEM.md is literal. */
  template: boolean;
  /** 1-based line of `source.path` on which `text` starts. */
  line?: number;
  source: SectionSource;
}

/** A named section given in code; replaces a section's body or is appended. */
export interface ExtraSection {
  name: string;
  text: string;
}

export interface RenderInput {
  /** Layered section templates, sorted (see `layerSections`). */
  templates: readonly SectionTemplate[];
  /** Partials available to every template, by name (`{{> name}}`). */
  partials?: Readonly<Record<string, string>>;
  data: PromptData;
  customPrompt?: CustomPrompt | null;
  extraSections?: readonly ExtraSection[];
}

export interface RenderOutput {
  text: string;
  sections: RenderedSection[];
  diagnostics: Diagnostic[];
}

/**
 * Turns templates and data into the prompt. Pure: no file system, clock or
 * environment, so the same input gives the same bytes.
 *
 * A template that fails falls back to the version it overrides *whole*: that
 * version's body and frontmatter (tag, order, enabled…), with a located
 * diagnostic. Each problem is reported once.
 */
export function renderSections(input: RenderInput, engine: Engine): RenderOutput {
  const diagnostics: Diagnostic[] = [];
  const partials = input.partials ?? {};
  const placed: { key: SortKey; section: RenderedSection }[] = [];
  const rendered = new Map<SectionTemplate, string | undefined>();
  const custom = input.customPrompt ? renderCustom(input.customPrompt) : null;
  const customSource = input.customPrompt?.source ?? { layer: "option" as const };

  if (custom !== null) {
    // The custom prompt takes the place of the first base section, enabled or
    // not; with no base section at all (every layer removed them) it leads.
    const first = input.templates.find((t) => t.meta.base);
    place(first ? sortKey(first) : LEADING, makeSection("preamble", custom, false, customSource));
  }
  for (const template of input.templates) {
    const used = chooseVersion(template);
    if (!used) continue;
    place(
      sortKey(used.version),
      makeSection(template.name, used.text, used.version.meta.tag, used.version.source),
    );
  }
  // Stable: the custom prompt stays before a section that shares its key.
  const sections = placed.sort((a, b) => compareKeys(a.key, b.key)).map((p) => p.section);
  for (const extra of input.extraSections ?? []) applyExtra(extra);

  return { text: sections.map((s) => s.text).join("\n\n"), sections, diagnostics };

  function place(key: SortKey, section: RenderedSection | undefined) {
    if (section) placed.push({ key, section });
  }

  /** Replaces the body of the section of that name in place (its tag kept), or appends one. */
  function applyExtra(extra: ExtraSection) {
    const at = sections.findIndex((s) => s.name === extra.name);
    const tag = input.templates.find((t) => t.name === extra.name)?.meta.tag ?? extra.name;
    const made = makeSection(extra.name, extra.text, tag, { layer: "option" });
    if (at < 0) {
      if (made) sections.push(made);
    } else if (made) {
      sections[at] = made;
    } else {
      sections.splice(at, 1);
    }
  }

  function renderCustom(prompt: CustomPrompt): string | null {
    if (!prompt.template) return prompt.text;
    try {
      return engine.render(prompt.text, input.data, { partials });
    } catch (error) {
      diagnostics.push(
        templateDiagnostic(
          error,
          prompt.source,
          prompt.line ?? 1,
          "the builtin base prompt is used instead",
        ),
      );
      return null;
    }
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
    try {
      return engine.render(template.body, input.data, {
        partials: base ? { ...partials, base } : partials,
      });
    } catch (error) {
      const fallback = lower
        ? `the ${lower.source.layer} version is used instead`
        : "the section is left out";
      diagnostics.push(templateDiagnostic(error, template.source, template.bodyLine, fallback));
      return undefined;
    }
  }
}

/** Where a rendered section goes: by order, ties broken by name. */
type SortKey = readonly [order: number, name: string];

/** Before every section. */
const LEADING: SortKey = [Number.NEGATIVE_INFINITY, ""];

function sortKey(template: SectionTemplate): SortKey {
  return [template.meta.order, template.name];
}

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

function withFinalNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/** A formatted, trimmed, tag-wrapped section; undefined when its body is empty. */
function makeSection(
  name: string,
  body: string,
  tag: string | false,
  source: SectionSource,
): RenderedSection | undefined {
  const text = formatPrompt(body).trim();
  if (text === "") return undefined;
  return { name, text: tag === false ? text : `<${tag}>\n${text}\n</${tag}>`, source };
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
