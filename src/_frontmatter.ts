import { createRequire } from "node:module";
import type GrayMatter from "gray-matter";
import type * as Yaml from "yaml";
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

class FrontmatterTooLongError extends Error {}

/**
 * Longest frontmatter block that is parsed, in characters. Frontmatter is a
 * few keys of metadata (a skill's description is at most 1,024 characters);
 * the YAML parser is slow on large hostile blocks (many keys, tags or
 * aliases cost quadratic time), and a project file must not stall loading.
 */
export const MAX_FRONTMATTER_LENGTH = 16 * 1024;

const refuse = (language: string) => ({
  parse(): never {
    throw new RefusedEngineError(
      `"---${language}" frontmatter is executable code and is never run; use YAML`,
    );
  },
});

interface Parsers {
  yaml: typeof Yaml;
  options: Parameters<typeof GrayMatter>[1];
}
let parsers: Parsers | undefined;

/**
 * yaml costs tens of milliseconds to load, more than the rest of a CLI
 * render, and most renders never see a frontmatter block they have not seen
 * before (see the builtin cache below). So they are required on first use.
 */
function loadParsers(): Parsers {
  if (parsers) return parsers;
  const require = createRequire(import.meta.url);
  const yaml = require("yaml") as typeof Yaml;
  // The engines gray-matter would pick by the language after `---`; only YAML runs.
  const options = {
    engines: {
      yaml: { parse: (text: string) => yaml.parse(text) as unknown, stringify: () => "" },
      js: refuse("js"),
      javascript: refuse("javascript"),
      coffee: refuse("coffee"),
      coffeescript: refuse("coffeescript"),
      cson: refuse("cson"),
    },
  } as unknown as Parameters<typeof GrayMatter>[1];
  parsers = { yaml, options };
  return parsers;
}

/** Parsed frontmatter of known texts (the builtin prompts), filled from a build-time file. */
const known = new Map<string, { data: Record<string, unknown>; body: string; bodyLine: number }>();

/**
 * Adds documents whose parse is already known, keyed by their exact text. A
 * text that matches is not parsed again; any other text is parsed as usual,
 * so a stale entry can never change a result.
 */
export function rememberParsed(
  entries: readonly {
    text: string;
    data: Record<string, unknown>;
    body: string;
    bodyLine: number;
  }[],
): void {
  for (const { text, ...parsed } of entries) known.set(text, parsed);
}

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
  const remembered = known.get(text);
  if (remembered) {
    return { ...remembered, data: structuredClone(remembered.data), ok: true, diagnostics: [] };
  }
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
  let parsed: { data: unknown; content: string };
  const { options, yaml } = loadParsers();
  try {
    parsed = splitFrontmatter(text, options);
  } catch (error) {
    return {
      data: {},
      body: bodyAfterFence(text),
      bodyLine: lineOfBody(text, bodyAfterFence(text)),
      ok: false,
      diagnostics: [at(describeMatterError(error, yaml))],
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

function describeMatterError(error: unknown, yaml: typeof Yaml): Omit<Diagnostic, "path"> {
  if (error instanceof yaml.YAMLParseError) {
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
  if (error instanceof FrontmatterTooLongError) {
    return {
      level: "error",
      code: "frontmatter-too-long",
      message: error.message,
      line: 1,
      column: 1,
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

/**
 * Splits a document that starts with `---` the way gray-matter does (the same
 * language after the opening fence, the first "\n---" closes, comment-only
 * blocks are empty), but in linear time: gray-matter tests for an empty block
 * with /^\s*#[^\n]+/gm, which is quadratic on a block of many blank lines.
 * Throws what the engine throws, or FrontmatterTooLongError.
 */
function splitFrontmatter(
  text: string,
  options: Parameters<typeof GrayMatter>[1],
): { data: unknown; content: string } {
  // "----…" is not a fence for gray-matter: no frontmatter at all.
  if (text.charAt(3) === "-") return { data: {}, content: text };
  let rest = text.slice(3);
  const newline = rest.indexOf("\n");
  const rawLanguage = rest.slice(0, newline);
  const language = rawLanguage.trim() || "yaml";
  if (rawLanguage.trim() !== "") rest = rest.slice(rawLanguage.length);
  const close = rest.indexOf("\n---");
  const block = close < 0 ? rest : rest.slice(0, close);
  if (block.length > MAX_FRONTMATTER_LENGTH) {
    throw new FrontmatterTooLongError(
      `frontmatter is ${block.length} characters long, over the ${MAX_FRONTMATTER_LENGTH}-character limit; not parsed`,
    );
  }
  let content = close < 0 ? "" : rest.slice(close + 4);
  if (content.startsWith("\n")) content = content.slice(1);
  const data = onlyCommentLines(block) ? {} : engineFor(language, options).parse(block);
  return { data: data ?? {}, content };
}

/** gray-matter's engine lookup: the name, then its alias; an unknown one throws. */
function engineFor(
  language: string,
  options: Parameters<typeof GrayMatter>[1],
): { parse: (text: string) => unknown } {
  const engines: Record<string, unknown> = {
    json: { parse: (text: string) => JSON.parse(text) as unknown },
    ...(options as { engines?: Record<string, unknown> } | undefined)?.engines,
  };
  const engine = engines[language] ?? engines[engineAlias(language)];
  if (engine === undefined) throw new Error(`gray-matter engine "${language}" is not registered`);
  if (typeof engine === "function") return { parse: engine as (text: string) => unknown };
  return engine as { parse: (text: string) => unknown };
}

function engineAlias(name: string): string {
  switch (name.toLowerCase()) {
    case "js":
    case "javascript":
      return "javascript";
    case "coffee":
    case "coffeescript":
    case "cson":
      return "coffee";
    case "yaml":
    case "yml":
      return "yaml";
    default:
      return name;
  }
}

/** Whether every line is blank or a `#` comment with text after the `#`. */
function onlyCommentLines(block: string): boolean {
  for (const line of block.split("\n")) {
    const start = line.trimStart();
    if (start !== "" && !(start.startsWith("#") && start.length > 1)) return false;
  }
  return true;
}
