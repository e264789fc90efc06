import { basename } from "node:path";
import { parseFrontmatter } from "../_frontmatter.js";
import { type KnownKeys, unknownKeyDiagnostics } from "../_frontmatter-keys.js";
import type { Diagnostic } from "../types.js";
import { ARGUMENT_WHITESPACE } from "./args.js";
import type { PromptTemplate, PromptTemplateSource } from "./types.js";

/** Longest description taken from the body before it is cut and given `...`. */
export const MAX_DESCRIPTION_LENGTH = 60;

const ELLIPSIS = "...";

export const TEMPLATE_EXTENSION = ".md";

/**
 * An unclosed `---` block is read as plain text by the frontmatter parser; the
 * template is still usable, so only this problem keeps it.
 */
const USABLE_FRONTMATTER_PROBLEMS = new Set(["frontmatter-unclosed"]);

/**
 * The keys pi reads, with those Claude Code's commands add. Open like a
 * skill's: only a likely typo of one of these is reported.
 */
const TEMPLATE_KEYS: KnownKeys = {
  keys: ["description", "argument-hint", "allowed-tools", "model", "disable-model-invocation"],
  closed: false,
};

export interface ParsedPromptTemplate {
  /** Absent when the file cannot be used as a template. */
  template?: PromptTemplate;
  diagnostics: Diagnostic[];
}

/**
 * Turns the text of a template file into a {@link PromptTemplate} without
 * touching the disk. Invalid frontmatter skips the template with a warning
 * located in `filePath`.
 */
export function parsePromptTemplate(
  text: string,
  filePath: string,
  source: PromptTemplateSource,
): ParsedPromptTemplate {
  const name = templateName(filePath);
  if (name === "") {
    return {
      diagnostics: [
        {
          level: "warning",
          code: "template-name",
          message: `prompt template skipped: "${basename(filePath)}" has no name before ${TEMPLATE_EXTENSION}`,
          path: filePath,
        },
      ],
    };
  }
  const parsed = parseFrontmatter(text, filePath, { lenient: true });
  const unusable = parsed.diagnostics.some((d) => !USABLE_FRONTMATTER_PROBLEMS.has(d.code));
  if (!parsed.ok && unusable) {
    // A template whose metadata we cannot read would expand with the wrong
    // description or hint at best; leave it out and say where the error is.
    return {
      diagnostics: parsed.diagnostics.map((d) => ({
        ...d,
        level: "warning",
        message: `prompt template skipped: ${d.message}`,
      })),
    };
  }
  const diagnostics = [
    ...parsed.diagnostics,
    ...unknownKeyDiagnostics(parsed.data, TEMPLATE_KEYS, {
      code: "template-key-unknown",
      path: filePath,
      keyLines: parsed.keyLines,
    }),
  ];
  if (ARGUMENT_WHITESPACE.test(name)) {
    diagnostics.push({
      level: "info",
      code: "template-name",
      message: `prompt template "${name}" cannot be invoked: a slash-command name ends at the first whitespace`,
      path: filePath,
    });
  }
  const hint = nonEmptyString(parsed.data["argument-hint"]);
  const template: PromptTemplate = {
    name,
    description: nonEmptyString(parsed.data.description) ?? describeFromBody(parsed.body),
    ...(hint === undefined ? {} : { argumentHint: hint }),
    content: parsed.body,
    filePath,
    source,
  };
  bodyLines.set(template, parsed.bodyLine);
  return { template, diagnostics };
}

/**
 * The 1-based line of its file on which a parsed template's `content` starts
 * (after its frontmatter), kept out of the template's fields: 1 for a template
 * not read from a file here.
 */
const bodyLines = new WeakMap<object, number>();

export function templateBodyLine(template: object): number {
  return bodyLines.get(template) ?? 1;
}

/** The file name without its `.md` extension. */
export function templateName(filePath: string): string {
  const file = basename(filePath);
  return file.endsWith(TEMPLATE_EXTENSION) ? file.slice(0, -TEMPLATE_EXTENSION.length) : file;
}

function nonEmptyString(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** The first non-blank body line, trimmed and cut to {@link MAX_DESCRIPTION_LENGTH}. */
function describeFromBody(body: string): string {
  const line = body.split("\n").find((candidate) => candidate.trim() !== "");
  if (line === undefined) return "";
  // Count code points so an emoji is never cut in half.
  const chars = Array.from(line.trim());
  return chars.length > MAX_DESCRIPTION_LENGTH
    ? chars.slice(0, MAX_DESCRIPTION_LENGTH).join("") + ELLIPSIS
    : chars.join("");
}
