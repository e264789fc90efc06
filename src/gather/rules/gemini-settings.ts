import { type JsonShapeLimits, jsonShapePast, lineAt } from "../../_json-shape.js";
import { toPosix } from "../../_paths.js";
import { GEMINI_SETTINGS } from "../../agent-settings-files.js";
import {
  humanBytes,
  type Reach,
  readRepoCapped,
  refusalDiagnostic,
} from "../../repo-files/index.js";
import type { Diagnostic } from "../../types.js";
import { findRuleFiles } from "./discover.js";

/**
 * Gemini CLI's context file names: `context.fileName` of the workspace's
 * `.gemini/settings.json` (a string or a list; JSON with comments), which
 * replaces the default `GEMINI.md` in every folder it searches. Source:
 * google-gemini/gemini-cli packages/cli/src/config/settingsSchema.ts and
 * packages/core/src/utils/memoryDiscovery.ts at 5411f113ca (2026-08-21).
 */

/** Where Gemini CLI reads the workspace's settings, below cwd. */
export { GEMINI_SETTINGS } from "../../agent-settings-files.js";
export { settingsNamedHidden, settingsNamedWords } from "../context-names.js";

/** Most names taken from the setting; a repository's file should not multiply the look-ups. */
export const MAX_GEMINI_NAMES = 16;

/**
 * Longest `.gemini/settings.json` read, by the render (`context.fileName`)
 * and the hook (its threshold) alike: a settings file with MCP servers and
 * hooks passes 64 KiB honestly (review rev53b F1), and the parse of 1 MiB
 * stays bounded. A longer file is left unread, and said to be cut.
 */
export const MAX_GEMINI_SETTINGS_BYTES = 1024 * 1024;

/**
 * The shape a settings file is parsed within, checked before its parse
 * ({@link parseGeminiSettings}). A real one nests a few levels and holds
 * some dozens of arrays and objects (900 MCP servers, 124 KB, hold 1,802),
 * while 1 MiB of `[[[…]]]` took the hook 0.45 s of CPU and 77 MB on every
 * Gemini CLI tool call (review rev107b F1). Within these, 1 MiB costs its
 * parse some 25 ms at most (16,384 new key names in 4,096 objects).
 */
export const GEMINI_SETTINGS_LIMITS: JsonShapeLimits = {
  depth: 64,
  containers: 4096,
  values: 131_072,
  keys: 16_384,
};

/** A settings file's text parsed, or why not (a phrase: "not JSON (…)"). */
export type SettingsParse = { value: unknown } | { problem: string };

/** The last text {@link parseGeminiSettings} parsed: the render's, the hook's passes and its cut share one parse. */
let lastParse: { text: string; parse: SettingsParse } | undefined;

/**
 * Gemini CLI's settings text (JSON with comments) parsed, or why not: past
 * {@link GEMINI_SETTINGS_LIMITS} it is not parsed ("not read as JSON (it
 * nests deeper than 64 levels, at line 3)"), and text that is not JSON is
 * "not JSON (…)". The one parse of every settings file, the project's and
 * yours; the same text is parsed once a process (the value is shared: read
 * it, never change it).
 */
export function parseGeminiSettings(text: string): SettingsParse {
  if (lastParse?.text === text) return lastParse.parse;
  const stripped = stripJsonComments(text);
  const past = jsonShapePast(stripped, GEMINI_SETTINGS_LIMITS);
  let parse: SettingsParse;
  if (past !== undefined) {
    parse = {
      problem: `not read as JSON (it ${past.problem}, at line ${lineAt(stripped, past.at)})`,
    };
  } else {
    try {
      parse = { value: JSON.parse(stripped) };
    } catch (error) {
      parse = { problem: `not JSON (${(error as Error).message})` };
    }
  }
  lastParse = { text, parse };
  return parse;
}

/** Longest name kept (a file name on every common file system). */
const MAX_NAME_LENGTH = 255;

/**
 * The names `context.fileName` sets in `<cwd>/.gemini/settings.json`, or
 * undefined when there is no such setting (the default `GEMINI.md` holds).
 * The file is found as rule files are and read through the door with the
 * project's `reach` (a link out of the project, or for an untrusted project
 * to a private file such as `.env`, is refused; a parse error quotes the
 * start of the text it read). A name that is not one plain file name (a
 * slash, `..`, empty) is dropped with a warning: it could lead out of the folder;
 * so is a hidden name (`.env`, where a clone keeps your keys), trusted or not.
 */
export async function geminiContextNames(
  cwd: string,
  reach: Reach,
): Promise<{ names?: string[]; diagnostics: Diagnostic[] }> {
  const settings = await readGeminiSettings(
    cwd,
    reach,
    "context.fileName not read, GEMINI.md used",
  );
  if (!("value" in settings)) return { diagnostics: settings.diagnostics };
  const { value, path } = settings;
  const warn = (message: string): Diagnostic => ({
    level: "warning",
    code: "gemini-settings",
    message,
    path,
  });
  const setting = (value as { context?: { fileName?: unknown } } | null)?.context?.fileName;
  if (setting === undefined) return { diagnostics: [] };
  const listed = typeof setting === "string" ? [setting] : setting;
  if (!Array.isArray(listed)) {
    return {
      diagnostics: [warn("context.fileName is neither a string nor a list; GEMINI.md used")],
    };
  }
  const diagnostics: Diagnostic[] = [];
  // The first MAX_GEMINI_NAMES distinct names are kept; the rest are only counted, through a set:
  // a list of 131,000 names, each looked for in those before it, cost 13 s (review rev108b F3).
  const names: string[] = [];
  const seen = new Set<string>();
  for (const name of listed) {
    if (!isPlainName(name)) {
      diagnostics.push(warn(`context.fileName ${shownEntry(name)} is not one file name; left out`));
    } else if (name.startsWith(".")) {
      // Trusted or not: `.env` is where a clone keeps your keys, never the repository's instructions.
      diagnostics.push(
        warn(
          `context.fileName ${shownEntry(name)} is a hidden name; left out: no hidden file is read as context`,
        ),
      );
    } else if (!seen.has(name)) {
      seen.add(name);
      if (names.length < MAX_GEMINI_NAMES) names.push(name);
    }
  }
  if (seen.size > MAX_GEMINI_NAMES) {
    diagnostics.push(
      warn(`context.fileName lists ${seen.size} names; the first ${MAX_GEMINI_NAMES} are read`),
    );
  }
  return { names, diagnostics };
}

/**
 * The parsed `<cwd>/.gemini/settings.json` (JSON with comments), found as
 * rule files are and read through the door with the project's `reach`, or
 * the diagnostics of why not (none when there is no such file); a parse
 * error's warning ends with `unread` (what is used instead). At most
 * {@link MAX_GEMINI_SETTINGS_BYTES} are read: `cut` says the file is
 * longer, and the value is that of its start, when that parses; when it does
 * not, the warning says the file was cut (its size and the cap), not that
 * it is not JSON.
 */
export async function readGeminiSettings(
  cwd: string,
  reach: Reach,
  unread: string,
): Promise<{ value: unknown; path: string; cut: boolean } | { diagnostics: Diagnostic[] }> {
  const [found] = await findRuleFiles(cwd, { rel: GEMINI_SETTINGS, kind: "file" }, reach);
  if (found === undefined) return { diagnostics: [] };
  const path = toPosix(found.path);
  const warn = (message: string): Diagnostic => ({
    level: "warning",
    code: "gemini-settings",
    message,
    path,
  });
  if (found.door) return { diagnostics: [refusalDiagnostic(path, found.door)] };
  if (found.refused) return { diagnostics: [warn(`not read: ${found.refused.reason}`)] };
  const maxBytes = MAX_GEMINI_SETTINGS_BYTES;
  const text = await readRepoCapped(found.path, { reach, maxBytes });
  if (!text.ok) return { diagnostics: text.diagnostics.map((d) => ({ ...d, path })) };
  const parse = parseGeminiSettings(text.text);
  if ("value" in parse) return { value: parse.value, path, cut: text.omitted > 0 };
  if (text.omitted > 0) {
    // The cut fell at a character boundary at most 3 bytes short of the cap: the size is shown rounded.
    const cap = humanBytes(maxBytes);
    return {
      diagnostics: [
        warn(
          `is ${humanBytes(maxBytes + text.omitted)}, over the ${cap} cap: only its first ${cap} read (${text.omitted} bytes left out), which is not JSON on its own; ${unread}`,
        ),
      ],
    };
  }
  return { diagnostics: [warn(`${parse.problem}; ${unread}`)] };
}

/**
 * An entry as a message quotes it: a string cut short, anything else by its
 * kind. JSON.stringify of the value itself recurses: a 60 KB settings file
 * of nested lists overflowed the stack and failed the rules step and the tree.
 */
function shownEntry(name: unknown): string {
  if (typeof name === "string") {
    return JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  }
  if (Array.isArray(name)) return "(a list)";
  return name === null ? "null" : `(a ${typeof name})`;
}

function isPlainName(name: unknown): name is string {
  return (
    typeof name === "string" &&
    name.length > 0 &&
    name.length <= MAX_NAME_LENGTH &&
    name !== "." &&
    name !== ".." &&
    !/[/\\\0]/.test(name)
  );
}

/**
 * `text` with `//` and `/* … *\/` comments outside strings blanked (a block
 * comment's line breaks kept): one pass, linear.
 */
function stripJsonComments(text: string): string {
  let out = "";
  let i = 0;
  let from = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      out += text.slice(from, i);
      while (i < text.length && text[i] !== "\n") i++;
      from = i;
    } else if (c === "/" && text[i + 1] === "*") {
      out += text.slice(from, i);
      const end = text.indexOf("*/", i + 2);
      const to = end === -1 ? text.length : end + 2;
      // The comment's line breaks are kept: a line said is the file's.
      out += ` ${"\n".repeat(lineBreaks(text, i, to))}`;
      i = to;
      from = i;
    } else i++;
  }
  return out + text.slice(from);
}

/**
 * How many line breaks `text` holds from `from` to `to`, looking at those
 * characters only: a search for the next line break ran past `to` to the
 * line's end once per comment, and 1 MiB of empty block comments on one line cost 1.5 s
 * (review rev109e F3).
 */
function lineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
