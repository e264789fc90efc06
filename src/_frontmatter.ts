import type * as Yaml from "yaml";
import { keyLinesOf, readKeyValueLines } from "./_frontmatter-lines.js";
import {
  firstDuplicateKey,
  loadYaml,
  parseYaml,
  YAML_TEXT_CAPS,
  yamlLimitProblem,
} from "./_yaml.js";
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
  /**
   * The file line of each top-level key, from the YAML parser (first one wins),
   * so a diagnostic about a key points at it. Empty for JSON frontmatter and
   * for texts whose parse came from the build-time cache (they have no diagnostics to place).
   */
  keyLines: ReadonlyMap<string, number>;
  diagnostics: Diagnostic[];
}

/** Longest frontmatter block read, in characters ({@link YAML_TEXT_CAPS}). */
export const MAX_FRONTMATTER_CHARS = YAML_TEXT_CAPS.frontmatter;

class RefusedEngineError extends Error {}

/** `---<language>` names whose block would be code; it is never run. */
const EXECUTABLE_LANGUAGES = new Set(["js", "javascript", "coffee", "coffeescript", "cson"]);

/** Most YAML warnings reported for one block; the rest are counted in one more. */
export const MAX_YAML_WARNINGS = 10;

/** A YAML problem that does not stop the block from being read. */
interface YamlWarning {
  message: string;
  line?: number;
  column?: number;
}

/** A value that parsed but cannot be built (an alias to a missing anchor, too many aliases). */
class YamlValueError extends Error {}

/** A YAML error placed here rather than by yaml: a key found twice, a bracket or quote never closed. */
class LocatedYamlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

/**
 * Parses one frontmatter block. `yaml.parse` would hand warnings to
 * `process.emitWarning` (printed by Node, even under `--json`); here they are
 * returned, and the first error is thrown. Duplicate keys stay an error
 * (yaml's default): which of two `order:` values was meant is a guess. They
 * are found by `firstDuplicateKey` (one set per mapping) and reported here,
 * in the frontmatter's words, after yaml's own errors.
 */
function readYaml(text: string): BlockValue {
  const warnings: YamlWarning[] = [];
  // logLevel "error": nothing reaches process.emitWarning, errors are still kept.
  const parsed = parseYaml(text, {
    maxChars: MAX_FRONTMATTER_CHARS,
    logLevel: "error",
    uniqueKeys: false,
  });
  if (!parsed.ok) {
    const { message, line, column } = parsed.problem;
    throw new LocatedYamlError(`${message}; not parsed`, line, column);
  }
  const { yaml, doc, lines } = parsed;
  const error = doc.errors[0];
  if (error) {
    const pos = lines.linePos(unclosedOpening(yaml, doc, error) ?? error.pos[0]);
    throw new LocatedYamlError(firstLine(error.message), pos.line, pos.col);
  }
  for (const warning of doc.warnings) {
    const pos = lines.linePos(warning.pos[0]);
    const hint = warning.code === "TAG_RESOLVE_FAILED" ? "; the tag is ignored" : "";
    warnings.push({
      message: `${firstLine(warning.message)}${hint}`,
      line: pos.line,
      column: pos.col,
    });
  }
  const duplicate = firstDuplicateKey(yaml, doc);
  yaml.visit(doc, {
    Pair(_, pair) {
      // Object keys are strings: yaml stringifies such a key and would warn through the process.
      if (!yaml.isCollection(pair.key)) return;
      const pos = pair.key.range ? lines.linePos(pair.key.range[0]) : undefined;
      warnings.push({
        message: "a key that is a list or mapping is read as its text",
        ...(pos ? { line: pos.line, column: pos.col } : {}),
      });
    },
  });
  if (duplicate) {
    const pos = lines.linePos(duplicate.offset);
    throw new LocatedYamlError(`key "${String(duplicate.key)}" appears twice`, pos.line, pos.col);
  }
  const keyLines = new Map<string, number>();
  if (yaml.isMap(doc.contents)) {
    for (const { key } of doc.contents.items) {
      if (!yaml.isScalar(key) || !key.range) continue;
      const name = String(key.value);
      if (!keyLines.has(name)) keyLines.set(name, lines.linePos(key.range[0]).line);
    }
  }
  try {
    return { value: doc.toJS(), warnings, keyLines };
  } catch (cause) {
    throw new YamlValueError(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * Where the bracket or quote opens that `error` says is never closed. yaml
 * reports it where it gave up, which is the next line (`order: [30` on line 2
 * is "at 3:1"); the place to fix is the `[`. The innermost flow collection or
 * quoted scalar that ends where the error is.
 */
function unclosedOpening(
  yaml: typeof Yaml,
  doc: Yaml.Document.Parsed,
  error: Yaml.YAMLError,
): number | undefined {
  if (error.code !== "BAD_INDENT" && error.code !== "MISSING_CHAR") return undefined;
  const at = error.pos[0];
  let opening: number | undefined;
  yaml.visit(doc, {
    Node(_, node) {
      const open =
        (yaml.isCollection(node) && node.flow === true) ||
        (yaml.isScalar(node) && (node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE"));
      const range = node.range;
      if (!open || !range || range[1] !== at) return;
      if (opening === undefined || range[0] > opening) opening = range[0];
    },
  });
  return opening;
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

/** A block's value, its YAML warnings and where its top-level keys are. */
interface BlockValue {
  value: unknown;
  warnings: YamlWarning[];
  keyLines: Map<string, number>;
}

const NO_KEYS: ReadonlyMap<string, number> = new Map();

/**
 * Parsed frontmatter of known texts (the builtin prompts), filled from a build-time file
 * and by the builtin layer's own parses ({@link FrontmatterOptions.remember}).
 */
const known = new Map<
  string,
  {
    data: Record<string, unknown>;
    body: string;
    bodyLine: number;
    keyLines?: ReadonlyMap<string, number>;
  }
>();

/**
 * Texts a render adds to {@link known} at most, and the longest it adds: the builtin
 * layer is some twenty files of a few KB (`builtinDir` may name another folder, which
 * a long-lived process could change under it).
 */
const REMEMBERED_TEXTS = 256;
const REMEMBERED_CHARS = 64 * 1024;
let remembered = 0;

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

/**
 * Whether `text` opens with a line this reader takes as a block opener: `---`, with or
 * without a language name after it (`---yaml`, `--- yaml`, `---json`, gray-matter's form too),
 * after a byte-order mark, in any line ending; not `----` (a thematic break). The one test of
 * an opening line: the writers that refuse a settings block ask it (review rev89h F2).
 */
export function opensFrontmatter(text: string): boolean {
  const t = normalizeText(text);
  return (FENCE.test(t) || t === "---" || /^---[^\n]*$/.test(t)) && t.charAt(3) !== "-";
}

/** Strips a UTF-8 BOM and turns CRLF / CR line endings into LF. */
export function normalizeText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.includes("\r") ? noBom.replace(/\r\n?/g, "\n") : noBom;
}

export interface FrontmatterOptions {
  /**
   * Another agent's format (a skill, a prompt template): a block that is not
   * valid YAML, or is past the YAML limits, is read line by line as `key:
   * value` (see `_frontmatter-lines.ts`) with a `frontmatter-not-yaml`
   * warning at the YAML problem, as those agents' readers take it, instead of
   * an unusable block. Default false: sysprompt's own files stay strict.
   */
  lenient?: boolean;
  /**
   * Keep the parse of a text that parsed without a diagnostic, keyed by its exact text,
   * so the same text is not parsed again in this process (another text never matches).
   * The builtin layer's files ask for it: every render in a process parses them, and
   * their YAML took about a quarter of a render run from source (no build-time cache).
   */
  remember?: boolean;
}

/**
 * Splits `source` into YAML frontmatter and body without touching the disk.
 * Bad YAML, a non-mapping block, an unclosed block, a block over
 * {@link MAX_FRONTMATTER_CHARS} or an executable engine (`---js`) gives a
 * diagnostic located in `path`, `ok: false` and empty data; a YAML warning
 * gives a diagnostic and keeps the data. Nothing is ever executed, nothing
 * throws, nothing is printed, and the cost is linear in the text.
 */
export function parseFrontmatter(
  source: string,
  path?: string,
  options: FrontmatterOptions = {},
): ParsedDocument {
  const text = normalizeText(source);
  const hit = known.get(text);
  if (hit) {
    return {
      data: structuredClone(hit.data),
      body: hit.body,
      bodyLine: hit.bodyLine,
      ok: true,
      keyLines: hit.keyLines ?? NO_KEYS,
      diagnostics: [],
    };
  }
  const parsed = parseText(text, path, options);
  if (
    options.remember &&
    parsed.ok &&
    parsed.diagnostics.length === 0 &&
    text.length <= REMEMBERED_CHARS &&
    remembered < REMEMBERED_TEXTS
  ) {
    remembered++;
    const { data, body, bodyLine, keyLines } = parsed;
    known.set(text, { data: structuredClone(data), body, bodyLine, keyLines });
  }
  return parsed;
}

function parseText(
  text: string,
  path: string | undefined,
  options: FrontmatterOptions,
): ParsedDocument {
  const at = (d: Omit<Diagnostic, "path">): Diagnostic => (path ? { ...d, path } : d);
  // An unusable block: no data, the body as split, and why.
  const unusable = (body: string, bodyLine: number, d: Omit<Diagnostic, "path">) => ({
    data: {},
    body,
    bodyLine,
    ok: false,
    keyLines: NO_KEYS,
    diagnostics: [at(d)],
  });
  if (!FENCE.test(text) && text !== "---") {
    return { data: {}, body: text, bodyLine: 1, ok: true, keyLines: NO_KEYS, diagnostics: [] };
  }
  if (!/\n---[ \t]*(\n|$)/.test(text.slice(3))) {
    return unusable(text, 1, {
      level: "warning",
      code: "frontmatter-unclosed",
      message: "frontmatter starts with --- but has no closing --- line; read as plain text",
      line: 1,
      column: 1,
    });
  }
  if (text.charAt(3) === "-") {
    // "----" opens no frontmatter (a thematic break, or a longer fence).
    return { data: {}, body: text, bodyLine: 1, ok: true, keyLines: NO_KEYS, diagnostics: [] };
  }
  const { language, block, body } = splitBlock(text);
  const bodyLine = lineOfBody(text, body);
  if (block.length > MAX_FRONTMATTER_CHARS) {
    return unusable(body, bodyLine, {
      level: "error",
      code: "frontmatter-too-large",
      message: `frontmatter is ${Math.ceil(block.length / 1024)} KB, over the ${MAX_FRONTMATTER_CHARS / 1024} KB limit; not read`,
      line: 1,
      column: 1,
    });
  }
  let data: unknown;
  let warnings: Diagnostic[] = [];
  let keyLines: ReadonlyMap<string, number> = NO_KEYS;
  try {
    const read = readBlock(language, block);
    data = read.value;
    keyLines = read.keyLines;
    warnings = warningDiagnostics(read.warnings, at);
  } catch (error) {
    const problem = describeBlockError(error);
    if (!options.lenient || problem.code !== "frontmatter-yaml") {
      return unusable(body, bodyLine, problem);
    }
    return readLeniently(block, body, bodyLine, at(problem));
  }
  if (data === null || data === undefined) {
    return { data: {}, body, bodyLine, ok: true, keyLines, diagnostics: warnings };
  }
  if (typeof data !== "object" || Array.isArray(data)) {
    return unusable(body, bodyLine, {
      level: "error",
      code: "frontmatter-not-mapping",
      message: "frontmatter must be a YAML mapping of keys to values",
      line: 2,
      column: 1,
    });
  }
  return {
    data: data as Record<string, unknown>,
    body,
    bodyLine,
    ok: true,
    keyLines,
    diagnostics: warnings,
  };
}

/** A block that is not YAML, read line by line, with a warning where YAML gave up. */
function readLeniently(
  block: string,
  body: string,
  bodyLine: number,
  problem: Diagnostic,
): ParsedDocument {
  // The block starts with the newline that ends the opening line: line 2 is its second line.
  const lines = block.split("\n").slice(1);
  const reason = problem.message.replace(/^invalid YAML frontmatter: /, "");
  const data = readKeyValueLines(lines);
  // `key:` with no items under it is YAML's null, as the YAML reader gives it.
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value) && value.length === 0) data[key] = null;
  }
  return {
    data,
    body,
    bodyLine,
    ok: true,
    keyLines: new Map(Object.entries(keyLinesOf(lines))),
    diagnostics: [
      {
        ...problem,
        level: "warning",
        code: "frontmatter-not-yaml",
        message: `frontmatter is not valid YAML (${reason}); read line by line as "key: value", the way other agents' readers take it; quote the value to make it YAML`,
      },
    ],
  };
}

/**
 * Splits a text that opens with `---<language>` and has a closing `---` line
 * somewhere: the block runs to the first line that starts with `---` (as
 * gray-matter did), the body starts on the line after it. The block keeps the
 * newline that ends the opening line, so its line numbers are file line
 * numbers. Plain string searches only: linear in the text.
 */
function splitBlock(text: string): { language: string; block: string; body: string } {
  const eol = text.indexOf("\n");
  const language = text.slice(3, eol).trim();
  const rest = text.slice(eol);
  const close = rest.indexOf("\n---");
  const block = rest.slice(0, close);
  const after = rest.slice(close + "\n---".length);
  return { language, block, body: after.startsWith("\n") ? after.slice(1) : after };
}

/** The value of a block: YAML (the default) or JSON; executable languages are refused. */
function readBlock(language: string, block: string): BlockValue {
  // Only blank and comment lines: nothing to read, whatever the language.
  if (isBlank(block)) return { value: {}, warnings: [], keyLines: new Map() };
  const name = language.toLowerCase();
  if (name === "" || name === "yaml" || name === "yml") return readYaml(block);
  if (name === "json") {
    // JSON is YAML's flow style: the same limits, before the parse. Lists
    // nested 15,000 deep overflowed the stack where a value was copied or
    // quoted (a rules step failed whole; `sysprompt list` crashed).
    const problem = yamlLimitProblem(block, MAX_FRONTMATTER_CHARS);
    if (problem) {
      throw new LocatedYamlError(`${problem.message}; not parsed`, problem.line, problem.column);
    }
    return { value: JSON.parse(block) as unknown, warnings: [], keyLines: new Map() };
  }
  if (EXECUTABLE_LANGUAGES.has(name)) {
    throw new RefusedEngineError(
      `"---${language}" frontmatter is executable code and is never run; use YAML`,
    );
  }
  throw new RefusedEngineError(`unsupported frontmatter: "---${language}"; use YAML`);
}

function isBlank(block: string): boolean {
  for (const line of block.split("\n")) {
    const trimmed = line.trim();
    if (trimmed !== "" && !trimmed.startsWith("#")) return false;
  }
  return true;
}

function describeBlockError(error: unknown): Omit<Diagnostic, "path"> {
  if (error instanceof loadYaml().YAMLParseError) {
    const pos = error.linePos?.[0];
    // The block starts with the newline after the opening fence, so YAML's
    // line numbers are already file line numbers.
    return {
      level: "error",
      code: "frontmatter-yaml",
      message: `invalid YAML frontmatter: ${firstLine(error.message)}`,
      ...(pos ? { line: pos.line, column: pos.col } : { line: 2, column: 1 }),
    };
  }
  if (error instanceof LocatedYamlError) {
    return {
      level: "error",
      code: "frontmatter-yaml",
      message: `invalid YAML frontmatter: ${error.message}`,
      line: error.line,
      column: error.column,
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

function lineOfBody(text: string, body: string): number {
  if (!text.endsWith(body)) return 1;
  const prefix = text.slice(0, text.length - body.length);
  let line = 1;
  for (let i = 0; i < prefix.length; i++) if (prefix.charCodeAt(i) === 10) line++;
  return line;
}
