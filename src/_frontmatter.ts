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

const refuse = (language: string) => ({
  parse(): never {
    throw new RefusedEngineError(
      `"---${language}" frontmatter is executable code and is never run; use YAML`,
    );
  },
});

interface Parsers {
  matter: typeof GrayMatter;
  yaml: typeof Yaml;
  options: Parameters<typeof GrayMatter>[1];
}
let parsers: Parsers | undefined;

/**
 * gray-matter and yaml cost ~40 ms to load, more than the rest of a CLI
 * render, and most renders never see a frontmatter block they have not seen
 * before (see the builtin cache below). So they are required on first use.
 */
function loadParsers(): Parsers {
  if (parsers) return parsers;
  const require = createRequire(import.meta.url);
  const matter = require("gray-matter") as typeof GrayMatter;
  const yaml = require("yaml") as typeof Yaml;
  // Always passing options also bypasses gray-matter's module-wide result cache,
  // which would otherwise hand out one shared (mutable) object per source text.
  const options = {
    engines: {
      yaml: { parse: (text: string) => readYaml(yaml, text), stringify: () => "" },
      js: refuse("js"),
      javascript: refuse("javascript"),
      coffee: refuse("coffee"),
      coffeescript: refuse("coffeescript"),
      cson: refuse("cson"),
    },
  } as unknown as Parameters<typeof GrayMatter>[1];
  parsers = { matter, yaml, options };
  return parsers;
}

/** Most YAML warnings reported for one block; the rest are counted in one more. */
export const MAX_YAML_WARNINGS = 10;

/** A YAML problem that does not stop the block from being read. */
interface YamlWarning {
  message: string;
  line?: number;
  column?: number;
}

/**
 * Warnings of the block being parsed. gray-matter calls the YAML engine
 * synchronously inside {@link parseFrontmatter}, which sets this around the call.
 */
let yamlWarnings: YamlWarning[] = [];

/** A value that parsed but cannot be built (an alias to a missing anchor, too many aliases). */
class YamlValueError extends Error {}

/**
 * Parses one frontmatter block. `yaml.parse` would hand warnings to
 * `process.emitWarning` (printed by Node, even under `--json`); here they are
 * collected for {@link parseFrontmatter} to return as diagnostics, and the
 * first error is thrown as before. Duplicate keys stay an error (yaml's
 * default): which of two `order:` values was meant is a guess.
 */
function readYaml(yaml: typeof Yaml, text: string): unknown {
  // logLevel "error": nothing reaches process.emitWarning, errors are still kept.
  const lines = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: lines, logLevel: "error" });
  const error = doc.errors[0];
  if (error) {
    if (error.code === "DUPLICATE_KEY") error.message = duplicateKeyMessage(yaml, doc, error);
    throw error;
  }
  for (const warning of doc.warnings) {
    const pos = warning.linePos?.[0];
    const hint = warning.code === "TAG_RESOLVE_FAILED" ? "; the tag is ignored" : "";
    yamlWarnings.push({
      message: `${firstLine(warning.message)}${hint}`,
      ...(pos ? { line: pos.line, column: pos.col } : {}),
    });
  }
  yaml.visit(doc, {
    Pair(_, pair) {
      // Object keys are strings: yaml stringifies such a key and would warn through the process.
      if (!yaml.isCollection(pair.key)) return;
      const pos = pair.key.range ? lines.linePos(pair.key.range[0]) : undefined;
      yamlWarnings.push({
        message: "a key that is a list or mapping is read as its text",
        ...(pos ? { line: pos.line, column: pos.col } : {}),
      });
    },
  });
  try {
    return doc.toJS();
  } catch (cause) {
    throw new YamlValueError(cause instanceof Error ? cause.message : String(cause));
  }
}

function duplicateKeyMessage(yaml: typeof Yaml, doc: Yaml.Document, error: Yaml.YAMLError): string {
  let key: string | undefined;
  yaml.visit(doc, {
    Pair(_, pair) {
      if (yaml.isScalar(pair.key) && pair.key.range?.[0] === error.pos[0]) {
        key = String(pair.key.value);
        return yaml.visit.BREAK;
      }
      return undefined;
    },
  });
  return key === undefined ? "a key appears twice" : `key "${key}" appears twice`;
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
}

/** YAML warnings as diagnostics, at most {@link MAX_YAML_WARNINGS} of them and a count of the rest. */
function warningDiagnostics(
  warnings: readonly YamlWarning[],
  at: (d: Omit<Diagnostic, "path">) => Diagnostic,
): Diagnostic[] {
  const shown = warnings.slice(0, MAX_YAML_WARNINGS).map((w) =>
    at({
      level: "warning",
      code: "frontmatter-yaml-warning",
      message: `YAML frontmatter: ${w.message}`,
      ...(w.line !== undefined ? { line: w.line, column: w.column ?? 1 } : {}),
    }),
  );
  const rest = warnings.length - shown.length;
  if (rest > 0) {
    shown.push(
      at({
        level: "warning",
        code: "frontmatter-yaml-warning",
        message: `YAML frontmatter: ${rest} more warning${rest === 1 ? "" : "s"} not shown`,
      }),
    );
  }
  return shown;
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
  let parsed: GrayMatter.GrayMatterFile<string>;
  const { matter, options, yaml } = loadParsers();
  let warnings: Diagnostic[];
  yamlWarnings = [];
  try {
    parsed = matter(text, options);
  } catch (error) {
    return {
      data: {},
      body: bodyAfterFence(text),
      bodyLine: lineOfBody(text, bodyAfterFence(text)),
      ok: false,
      diagnostics: [at(describeMatterError(error, yaml))],
    };
  } finally {
    warnings = warningDiagnostics(yamlWarnings, at);
    yamlWarnings = [];
  }
  const body = parsed.content;
  const bodyLine = lineOfBody(text, body);
  const data = parsed.data as unknown;
  if (data === null || data === undefined) {
    return { data: {}, body, bodyLine, ok: true, diagnostics: warnings };
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
  return { data: data as Record<string, unknown>, body, bodyLine, ok: true, diagnostics: warnings };
}

function describeMatterError(error: unknown, yaml: typeof Yaml): Omit<Diagnostic, "path"> {
  if (error instanceof yaml.YAMLParseError) {
    const pos = error.linePos?.[0];
    // gray-matter hands over the block with the newline after the opening
    // fence, so YAML's line numbers are already file line numbers.
    return {
      level: "error",
      code: "frontmatter-yaml",
      message: `invalid YAML frontmatter: ${firstLine(error.message)}`,
      ...(pos ? { line: pos.line, column: pos.col } : { line: 2, column: 1 }),
    };
  }
  if (error instanceof YamlValueError) {
    return {
      level: "error",
      code: "frontmatter-yaml",
      message: `invalid YAML frontmatter: ${firstLine(error.message)}`,
      line: 2,
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
