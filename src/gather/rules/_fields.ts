import { pushAll } from "../../_arrays.js";
import { normalizeText, parseFrontmatter } from "../../_frontmatter.js";
import {
  ITEM_LINE,
  KEY_LINE,
  keyLinesOf,
  readKeyValueLines,
  unquote,
} from "../../_frontmatter-lines.js";
import { describe } from "../../_text.js";
import type { Diagnostic } from "../../types.js";

/**
 * A rule file's frontmatter and body. Rule formats are open key sets read by
 * agents whose readers are not YAML (Cursor's `globs: *.ts` is an alias in
 * YAML), so this is lenient where section frontmatter is strict: a block that
 * is not valid YAML is read again line by line as `key: value` (and `- item`
 * lines under an empty value), with one located warning.
 */
export interface RuleDocument {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of the file on which each key stands, for located warnings. */
  keyLines: Record<string, number>;
  diagnostics: Diagnostic[];
}

export function readRuleDocument(source: string, path: string): RuleDocument {
  const text = normalizeText(source);
  const diagnostics: Diagnostic[] = [];
  const late = frontmatterAfterComment(text);
  if (late !== undefined) {
    diagnostics.push({
      level: "warning",
      code: "rule-frontmatter-not-first",
      message:
        "a --- block follows a comment: frontmatter must open on the first line, so this block is read as text and its fields (globs, alwaysApply…) do not apply; move the comment below the block",
      path,
      line: late,
      column: 1,
    });
  }
  const simple = simpleBlock(text);
  if (simple) return { ...simple, diagnostics };
  const doc = parseFrontmatter(text, path);
  const lines = text.split("\n");
  // Lines 2 … bodyLine - 2 are the block (line 1 opens it, bodyLine - 1 closes it).
  const blockLines = doc.bodyLine > 2 ? lines.slice(1, doc.bodyLine - 2) : [];
  const keyLines = keyLinesOf(blockLines);
  const yamlError = doc.diagnostics.find((d) => d.code === "frontmatter-yaml");
  if (doc.ok || !yamlError) {
    pushAll(diagnostics, doc.diagnostics);
    return { data: doc.data, body: doc.body, keyLines, diagnostics };
  }
  pushAll(
    diagnostics,
    doc.diagnostics.filter((d) => d !== yamlError),
  );
  diagnostics.push({
    level: "warning",
    code: "rule-frontmatter-not-yaml",
    message: `${yamlError.message.replace(/^invalid YAML frontmatter: /, "frontmatter is not valid YAML (")}); read line by line as "key: value", the way agents' own readers do — quote the value to make it YAML`,
    path,
    ...(yamlError.line !== undefined
      ? { line: yamlError.line, column: yamlError.column ?? 1 }
      : {}),
  });
  return { data: readKeyValueLines(blockLines), body: doc.body, keyLines, diagnostics };
}

/** Longest block the fast path reads; longer ones go to the YAML reader. */
const MAX_SIMPLE_BLOCK = 4096;

/** A plain or simply quoted YAML scalar that means the same read as text: no indicator first, no `: `, no ` #`, no escapes. */
function isSimpleValue(v: string): boolean {
  if (v === "") return true;
  const q = v[0];
  if (q === '"' || q === "'") {
    return v.length >= 2 && v.endsWith(q) && !v.slice(1, -1).includes(q) && !v.includes("\\");
  }
  return (
    !/^[&*!|>%@{}[\]?`,#:-]/.test(v) && !v.includes(": ") && !v.includes(" #") && !v.includes("\t")
  );
}

/**
 * The frontmatter of a rule file whose block is only `key: value` lines of
 * simple values (and `- item` lists): read without the YAML parser, which
 * costs ~0.4 ms a file, more than all the file system work of the step.
 * The result is what the YAML reader gives for such a block. Anything else
 * (a language after `---`, flow collections, escapes, comments after a value,
 * a repeated key) is undefined: the caller takes the full path.
 */
export function simpleBlock(text: string): Omit<RuleDocument, "diagnostics"> | undefined {
  if (!text.startsWith("---\n")) return undefined;
  const close = text.indexOf("\n---", 3);
  if (close < 0 || close > MAX_SIMPLE_BLOCK) return undefined;
  const eol = text.indexOf("\n", close + 4);
  const closing = text.slice(close + 4, eol < 0 ? text.length : eol);
  if (closing.trim() !== "") return undefined;
  const blockLines = text
    .slice(4, close + 1)
    .split("\n")
    .slice(0, -1);
  const seen = new Set<string>();
  let list = false;
  for (const line of blockLines) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const item = list ? ITEM_LINE.exec(line) : null;
    if (item) {
      if (!isSimpleValue((item[1] ?? "").trim())) return undefined;
      continue;
    }
    const m = KEY_LINE.exec(line);
    if (!m?.[1] || seen.has(m[1])) return undefined;
    seen.add(m[1]);
    const value = (m[2] ?? "").trim();
    if (!isSimpleValue(value)) return undefined;
    list = value === "";
  }
  const data = readKeyValueLines(blockLines);
  // An empty value with no items is YAML's null, not an empty list.
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value) && value.length === 0) data[key] = null;
  }
  const body = eol < 0 ? "" : text.slice(eol + 1);
  return { data, body, keyLines: keyLinesOf(blockLines) };
}

/** The line of a `---` block that follows a leading HTML comment, or undefined. */
function frontmatterAfterComment(text: string): number | undefined {
  const start = text.length - text.trimStart().length;
  if (!text.startsWith("<!--", start)) return undefined;
  const end = text.indexOf("-->", start);
  if (end < 0) return undefined;
  const after = end + 3;
  const rest = text.slice(after);
  const fence = after + (rest.length - rest.trimStart().length);
  if (!text.startsWith("---\n", fence)) return undefined;
  let line = 1;
  for (let i = 0; i < fence; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Values read as true or false when written as text (`"true"`, `yes`, `on`): ambiguous, so warned. */
const TRUE_WORDS = new Set(["true", "yes", "on", "y", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "n", "0", ""]);

/**
 * A flag such as `alwaysApply`. A YAML boolean (`true`, `True`, `TRUE`) is
 * used as it is. Text that agents read as a flag (`"true"`, `yes`, `on`, `1`,
 * and their false twins) is read the same way, with a warning since a YAML
 * reader disagrees; anything else is false, with a warning.
 */
export function flagField(
  doc: RuleDocument,
  key: string,
  path: string,
): { value: boolean | undefined; diagnostics: Diagnostic[] } {
  const raw = doc.data[key];
  if (raw === undefined || raw === null) return { value: undefined, diagnostics: [] };
  if (typeof raw === "boolean") return { value: raw, diagnostics: [] };
  // A list or mapping (a YAML alias can make one that holds itself) is no flag.
  const word = typeof raw === "object" ? undefined : String(raw).trim().toLowerCase();
  const value =
    word === undefined
      ? undefined
      : TRUE_WORDS.has(word)
        ? true
        : FALSE_WORDS.has(word)
          ? false
          : undefined;
  const line = doc.keyLines[key];
  return {
    value: value ?? false,
    diagnostics: [
      {
        level: "warning",
        code: "rule-flag-ambiguous",
        message:
          value === undefined
            ? `${key}: ${describe(raw, "yaml")} is not true or false; read as false`
            : `${key}: ${describe(raw, "yaml")} is text, not a YAML boolean; read as ${value} (write ${key}: ${value})`,
        path,
        ...(line !== undefined ? { line, column: 1 } : {}),
      },
    ],
  };
}

/**
 * A list such as `globs`: a string split on commas, or a list of strings
 * (each split too); trimmed, unquoted, empty ones left out. A comma inside
 * braces is the glob's own (`*.{ts,tsx}`), not a separator.
 */
export function listField(doc: RuleDocument, key: string): string[] | undefined {
  const raw = doc.data[key];
  if (raw === undefined || raw === null) return undefined;
  const items = Array.isArray(raw) ? raw : [raw];
  return items
    .filter((x) => typeof x === "string" || typeof x === "number")
    .flatMap((x) => splitOutsideBraces(String(x)))
    .map(unquote)
    .filter((x) => x !== "");
}

/** `text` split on the commas that are not inside `{…}`. */
function splitOutsideBraces(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** A text field such as `description`, trimmed; undefined when absent or empty. */
export function textField(doc: RuleDocument, key: string): string | undefined {
  const raw = doc.data[key];
  if (typeof raw !== "string" && typeof raw !== "number") return undefined;
  const value = String(raw).trim();
  return value === "" ? undefined : value;
}
