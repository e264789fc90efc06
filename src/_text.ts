/**
 * True for a character a terminal may act on rather than show: a C0 control
 * but tab and line feed, DEL, a C1 control (U+0080–U+009F: an 8-bit CSI is
 * U+009B), a bidirectional override or isolate that reorders what is shown
 * ("Trojan Source"), or the Unicode line and paragraph separators.
 */
function isActive(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0x2028 ||
    code === 0x2029
  );
}

/** Also kept out of one line: tab and line feed, zero-width characters, a BOM. */
function breaksALine(code: number): boolean {
  return (
    isActive(code) ||
    code === 0x09 ||
    code === 0x0a ||
    (code >= 0x200b && code <= 0x200f) ||
    code === 0xfeff
  );
}

/**
 * The characters of {@link isActive}, as one expression: a report of tens of
 * kilobytes (`render --json`) is scanned by the regular-expression engine in
 * microseconds, where a loop over its characters took milliseconds in a
 * process whose code has not warmed up.
 */
const span = (from: number, to: number) =>
  `${String.fromCharCode(from)}-${String.fromCharCode(to)}`;
const ACTIVE_SPANS = `${span(0x0b, 0x1f)}${span(0x7f, 0x9f)}${span(0x202a, 0x202e)}${span(0x2066, 0x2069)}${span(0x2028, 0x2029)}`;

/**
 * What a piece of text is, for {@link escapeControls}: which of tab and line
 * feed are its structure and stay. `report`: both (a report's lines and
 * columns); `field`: tab only (a path, a message, a table cell: a line feed
 * there could forge the next line); `name`: neither (a name quoted alone,
 * as in "did you mean").
 */
export type TextKind = "report" | "field" | "name";

const ACTIVE: Record<TextKind, RegExp> = {
  report: new RegExp(`[${span(0x00, 0x08)}${ACTIVE_SPANS}]`, "g"),
  field: new RegExp(`[${span(0x00, 0x08)}\\n${ACTIVE_SPANS}]`, "g"),
  name: new RegExp(`[${span(0x00, 0x0a)}${ACTIVE_SPANS}]`, "g"),
};

/**
 * `text` with every character a terminal could act on written as a visible
 * `\uXXXX` escape (ESC is `\u001b`); tab and line feed stay where `kind`
 * makes them structure. The escape is JSON's own, so JSON text passed
 * through this parses to the same value. Linear; text without such a
 * character is returned as it is.
 */
export function escapeControls(text: string, kind: TextKind = "report"): string {
  const active = ACTIVE[kind];
  active.lastIndex = 0;
  if (!active.test(text)) return text;
  return text.replace(active, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * {@link escapeControls} for text that is one field of a line (a path, a
 * message, a table cell): a line feed is escaped too (`\u000a`), since in a
 * field it is not structure and could forge the next line of a report.
 */
export function escapeInline(text: string): string {
  return escapeControls(text, "field");
}

const ELLIPSIS = "…";

/**
 * One printable line of at most `max` characters: controls, separators and
 * invisible format characters become spaces, runs of white space one space,
 * the ends trimmed; a longer line is cut with "…". For text a program printed
 * (a probe's output) that is shown or cached as a fact. A surrogate pair is
 * never split.
 */
export function cleanLine(text: string, max: number): string {
  let spaced = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    spaced += breaksALine(code) ? " " : text[i];
  }
  const line = spaced.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  let end = max - ELLIPSIS.length;
  const code = line.charCodeAt(end);
  if (code >= 0xdc00 && code <= 0xdfff) end--;
  return `${line.slice(0, end).trimEnd()}${ELLIPSIS}`;
}

/** A value for a message: strings quoted (and cut), other values by their kind. */
export function describe(value: unknown): string {
  if (typeof value === "string") {
    // Capped: the value may be a whole prompt.
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  }
  if (value instanceof Date) return String(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : String(value);
}
