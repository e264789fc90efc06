/**
 * Context on touch, for pi: when a tool call first touches a folder, the
 * nested instruction files there (AGENTS.md / CLAUDE.md between the project
 * root and that folder) and the glob rules that match the path are appended
 * to that call's result, each once per pi session. The system prompt is not
 * changed by this, so its cached prefix stays.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { escapeXml } from "../../../helpers/xml.js";
import { lstat } from "../../_io.js";
import { expandHome, toPosix } from "../../_paths.js";
import { TOUCH_ELEMENT, type TouchedFile } from "../../gather/context/on-touch.js";
import type { Diagnostic } from "../../types.js";
import type { PiToolResultEvent, PiToolResultPatch } from "./types.js";

/** The flag that turns it off (`--sysprompt-on-touch false`). */
export const ON_TOUCH_FLAG = "sysprompt-on-touch";

/** Most words of one bash command looked at, and most paths taken from them. */
export const MAX_BASH_WORDS = 256;
export const MAX_BASH_PATHS = 16;
/** A word longer than this is no path (PATH_MAX on Linux). */
const MAX_PATH_LENGTH = 4096;

/** Where a shell word ends: white space, operators, redirections, subshells, backquotes. */
const SHELL_BREAK = /[\s;|&<>()`]+/;

/** The tools whose `path` argument names what they touch (grep, find and ls: the folder searched). */
const PATH_TOOLS = new Set(["read", "edit", "write", "grep", "find", "ls"]);

/**
 * The paths a tool call touched, absolute: the `path` of read, edit, write,
 * grep, find and ls (as pi resolves it: `@` stripped, `~` expanded, relative
 * to cwd); none for grep, find and ls without one (they search cwd, whose
 * files the prompt has). For bash, only what is evidently a path: words
 * that start with `/`, `./`, `../` or `~/` and name something that exists.
 * Anything else (a word inside a quoted string, `$VAR/x`, `src/x` without
 * `./`) is not guessed at.
 */
export async function touchedPaths(
  toolName: string,
  input: unknown,
  cwd: string,
  home: string,
): Promise<string[]> {
  const args = (typeof input === "object" && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  if (PATH_TOOLS.has(toolName)) {
    const path = args.path;
    if (typeof path !== "string" || path.trim() === "") return [];
    return [resolvePiPath(path, cwd, home)];
  }
  if (toolName !== "bash" || typeof args.command !== "string") return [];
  const out: string[] = [];
  const words = args.command.split(SHELL_BREAK).slice(0, MAX_BASH_WORDS);
  for (const raw of words) {
    if (out.length >= MAX_BASH_PATHS) break;
    const word = unquote(raw);
    if (word.length > MAX_PATH_LENGTH || !looksLikePath(word)) continue;
    const abs = resolve(cwd, expandHome(word, home));
    if (out.includes(abs) || !(await exists(abs))) continue;
    out.push(abs);
  }
  return out;
}

function resolvePiPath(path: string, cwd: string, home: string): string {
  const written = path.startsWith("@") ? path.slice(1) : path;
  return resolve(cwd, expandHome(written, home));
}

function looksLikePath(word: string): boolean {
  return (
    word.startsWith("/") || word.startsWith("./") || word.startsWith("../") || word.startsWith("~/")
  );
}

/** A word without the quotes around it (`'./a b'` stays one word only when it has no space). */
function unquote(word: string): string {
  const first = word[0];
  if ((first === "'" || first === '"') && word.endsWith(first) && word.length >= 2) {
    return word.slice(1, -1);
  }
  return word;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    // Missing, or not ours to look at: not evidently a path.
    return false;
  }
}

/**
 * The text appended to a tool result: one `<instructions path="…">` element
 * per file (`rule="…"` for a rule), its path relative to cwd when inside it.
 * The path is escaped for an attribute; the text was escaped when it was
 * loaded, so it cannot close the element.
 */
export function formatTouched(files: readonly TouchedFile[], cwd: string): string {
  const parts = files.map((f) => {
    const rule = f.kind === "rule" && f.name !== undefined ? ` rule="${escapeXml(f.name)}"` : "";
    const path = escapeXml(shownPath(f.path, cwd));
    return `<${TOUCH_ELEMENT} path="${path}"${rule}>\n${f.content}\n</${TOUCH_ELEMENT}>`;
  });
  const lead =
    files.length === 1
      ? "An instruction file applies to what this call touched (given once per session):"
      : "Instruction files apply to what this call touched (each given once per session):";
  return `${lead}\n${parts.join("\n")}`;
}

function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const inside = rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return inside ? toPosix(rel) : path;
}

/** The patch of a tool result: its content with the files' element appended; undefined for none. */
export function appendTouched(
  event: Pick<PiToolResultEvent, "content" | "structuredContent">,
  files: readonly TouchedFile[],
  cwd: string,
): PiToolResultPatch | undefined {
  if (files.length === 0) return undefined;
  const content = [
    ...(event.content ?? []),
    { type: "text" as const, text: formatTouched(files, cwd) },
  ];
  // Content replaced without structured content drops it; the result's own is still right.
  return event.structuredContent === undefined
    ? { content }
    : { content, structuredContent: event.structuredContent };
}

/** The diagnostics of a touch worth saying to the user: refused files, not paths outside the project. */
export function touchProblems(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.level !== "info");
}
