import matter from "gray-matter";
import { parse as parseYaml, YAMLParseError } from "yaml";
import type { Diagnostic } from "./types.js";

/** The result of splitting a Markdown file into frontmatter and body. */
export interface ParsedDocument {
  /** The frontmatter mapping; `{}` when there is none or it was unusable. */
  data: Record<string, unknown>;
  /** The text after the closing `---`. */
  body: string;
  /** 1-based line of `path` on which `body` starts. */
  bodyLine: number;
  /** False when the frontmatter could not be used (bad YAML, refused engine). */
  ok: boolean;
  diagnostics: Diagnostic[];
}

class RefusedEngineError extends Error {}

const refuse = (language: string) => ({
  parse(): never {
    throw new RefusedEngineError(
      `"---${language}" frontmatter is executable code and is never run; use YAML`,
    );
  },
});

// Always passing options also bypasses gray-matter's module-wide result cache,
// which would otherwise hand out one shared (mutable) object per source text.
const MATTER_OPTIONS = {
  engines: {
    yaml: { parse: (text: string) => parseYaml(text) as unknown, stringify: () => "" },
    js: refuse("js"),
    javascript: refuse("javascript"),
    coffee: refuse("coffee"),
    coffeescript: refuse("coffeescript"),
    cson: refuse("cson"),
  },
} as unknown as Parameters<typeof matter>[1];

const FENCE = /^---[^\n]*\n/;

/** Strips a UTF-8 BOM and turns CRLF / CR line endings into LF. */
export function normalizeText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.includes("\r") ? noBom.replace(/\r\n?/g, "\n") : noBom;
}

/**
 * Splits `source` into YAML frontmatter and body without touching the disk.
 * Bad YAML, a non-mapping block, an unclosed block or an executable engine
 * (`---js`) gives a diagnostic located in `path`, `ok: false` and empty data;
 * nothing is ever executed and nothing throws.
 */
export function parseFrontmatter(source: string, path?: string): ParsedDocument {
  const text = normalizeText(source);
  const at = (d: Omit<Diagnostic, "path">): Diagnostic => (path ? { ...d, path } : d);
  if (!FENCE.test(text) && text !== "---") {
    return { data: {}, body: text, bodyLine: 1, ok: true, diagnostics: [] };
  }
  if (!/\n---[ \t]*(\n|$)/.test(text.slice(3))) {
    return {
      data: {},
      body: text,
      bodyLine: 1,
      ok: false,
      diagnostics: [
        at({
          level: "warning",
          code: "frontmatter-unclosed",
          message: "frontmatter starts with --- but has no closing --- line; read as plain text",
          line: 1,
          column: 1,
        }),
      ],
    };
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(text, MATTER_OPTIONS);
  } catch (error) {
    return {
      data: {},
      body: bodyAfterFence(text),
      bodyLine: lineOfBody(text, bodyAfterFence(text)),
      ok: false,
      diagnostics: [at(describeMatterError(error))],
    };
  }
  const body = parsed.content;
  const bodyLine = lineOfBody(text, body);
  const data = parsed.data as unknown;
  if (data === null || data === undefined) {
    return { data: {}, body, bodyLine, ok: true, diagnostics: [] };
  }
  if (typeof data !== "object" || Array.isArray(data)) {
    return {
      data: {},
      body,
      bodyLine,
      ok: false,
      diagnostics: [
        at({
          level: "error",
          code: "frontmatter-not-mapping",
          message: "frontmatter must be a YAML mapping of keys to values",
          line: 2,
          column: 1,
        }),
      ],
    };
  }
  return { data: data as Record<string, unknown>, body, bodyLine, ok: true, diagnostics: [] };
}

function describeMatterError(error: unknown): Omit<Diagnostic, "path"> {
  if (error instanceof YAMLParseError) {
    const pos = error.linePos?.[0];
    // gray-matter hands over the block with the newline after the opening
    // fence, so YAML's line numbers are already file line numbers.
    return {
      level: "error",
      code: "frontmatter-yaml",
      message: `invalid YAML frontmatter: ${error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "")}`,
      ...(pos ? { line: pos.line, column: pos.col } : { line: 2, column: 1 }),
    };
  }
  if (error instanceof RefusedEngineError) {
    return {
      level: "error",
      code: "frontmatter-engine",
      message: error.message,
      line: 1,
      column: 1,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    level: "error",
    code: "frontmatter-engine",
    message: `unsupported frontmatter: ${message}`,
    line: 1,
    column: 1,
  };
}

function bodyAfterFence(text: string): string {
  const close = text.slice(3).search(/\n---[ \t]*(\n|$)/);
  if (close < 0) return "";
  const rest = text.slice(3 + close + 1);
  const newline = rest.indexOf("\n");
  return newline < 0 ? "" : rest.slice(newline + 1);
}

function lineOfBody(text: string, body: string): number {
  if (!text.endsWith(body)) return 1;
  const prefix = text.slice(0, text.length - body.length);
  let line = 1;
  for (let i = 0; i < prefix.length; i++) if (prefix.charCodeAt(i) === 10) line++;
  return line;
}
