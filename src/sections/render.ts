import type { PromptData } from "../data.js";
import { type Engine, formatPrompt, TemplateError } from "../engine/index.js";
import type { Diagnostic, RenderedSection, SectionSource } from "../types.js";
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
 * environment, so the same input gives the same bytes. A template that fails
 * falls back to the version it overrides, with a located diagnostic.
 */
export function renderSections(input: RenderInput, engine: Engine): RenderOutput {
  const diagnostics: Diagnostic[] = [];
  const partials = input.partials ?? {};
  const sections: RenderedSection[] = [];
  const custom = input.customPrompt ? renderCustom(input.customPrompt) : null;
  const customSource = input.customPrompt?.source ?? { layer: "option" as const };
  let customPlaced = false;

  for (const template of input.templates) {
    if (custom !== null && template.meta.base) {
      // The custom prompt takes the place of the first base section, enabled or not.
      if (!customPlaced) pushSection("preamble", custom, false, customSource);
      customPlaced = true;
      continue;
    }
    if (!template.meta.enabled) continue;
    const rendered = renderWithFallback(template);
    if (rendered) pushSection(template.name, rendered.text, template.meta.tag, rendered.source);
  }
  if (custom !== null && !customPlaced) {
    // No base sections at all (every layer removed them): the custom prompt leads.
    const lead = makeSection("preamble", custom, false, customSource);
    if (lead) sections.unshift(lead);
  }
  for (const extra of input.extraSections ?? []) applyExtra(extra);

  return { text: sections.map((s) => s.text).join("\n\n"), sections, diagnostics };

  function pushSection(name: string, body: string, tag: string | false, source: SectionSource) {
    const made = makeSection(name, body, tag, source);
    if (made) sections.push(made);
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

  /** Renders a template; on failure, the version it overrides, and so on down. */
  function renderWithFallback(
    template: SectionTemplate,
  ): { text: string; source: SectionSource } | undefined {
    let baseText: string | undefined;
    const lower = template.lower;
    // `{{> base}}` alone on a line is a standalone partial: Handlebars drops
    // that line's newline and expects the partial to bring its own. A lower
    // file without a final newline would otherwise run into the next line.
    const base = lower
      ? () => {
          baseText ??= withFinalNewline(renderWithFallback(lower)?.text ?? "");
          return baseText;
        }
      : undefined;
    try {
      const text = engine.render(template.body, input.data, {
        partials: base ? { ...partials, base } : partials,
      });
      return { text, source: template.source };
    } catch (error) {
      const fallback = lower
        ? `the ${lower.source.layer} version is used instead`
        : "the section is left out";
      diagnostics.push(templateDiagnostic(error, template.source, template.bodyLine, fallback));
      return lower ? renderWithFallback(lower) : undefined;
    }
  }
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
