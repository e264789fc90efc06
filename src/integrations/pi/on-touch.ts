/**
 * Context on touch, for pi: when a tool call first touches a folder, the
 * nested instruction files there (AGENTS.md / CLAUDE.md between the project
 * root and that folder) and the glob rules that match the path are appended
 * to that call's result, each once per pi session. The system prompt is not
 * changed by this, so its cached prefix stays.
 */
import { resolve } from "node:path";
import { hostClosing, UNCLOSABLE_RESULT } from "../../_fence.js";
import { expandHome, PATH_MAX } from "../../_paths.js";
import type { TouchedFile } from "../../gather/context/index.js";
import { formatTouched } from "../../touch/format.js";
import { shellPaths } from "../../touch/shell-paths.js";
import type { Diagnostic } from "../../types.js";
import type { PiContentPart, PiToolResultEvent, PiToolResultPatch } from "./types.js";

/** The flag that turns it off (`--sysprompt-on-touch false`). */
export const ON_TOUCH_FLAG = "sysprompt-on-touch";

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
    // Measured before it is resolved: no file's path is longer (rev79h F3).
    if (typeof path !== "string" || path.trim() === "" || path.length > PATH_MAX) return [];
    return [resolvePiPath(path, cwd, home)];
  }
  if (toolName !== "bash" || typeof args.command !== "string") return [];
  return shellPaths(args.command, cwd, home);
}

function resolvePiPath(path: string, cwd: string, home: string): string {
  const written = path.startsWith("@") ? path.slice(1) : path;
  return resolve(cwd, expandHome(written, home));
}

export { formatTouched };

/**
 * The patch of a tool result: its content with the files' element appended;
 * undefined for none. `closing`: the result's {@link closingOf}, when the
 * caller asked it already (before `contextFor` kept the files as given).
 */
export function appendTouched(
  event: Pick<PiToolResultEvent, "content" | "structuredContent">,
  files: readonly TouchedFile[],
  cwd: string,
  say?: (diagnostic: Diagnostic) => void,
  closingOfResult: () => string | undefined = closingOf(event.content ?? []),
): PiToolResultPatch | undefined {
  if (files.length === 0) return undefined;
  const closing = closingOfResult();
  // A result no reading can close (more HTML than one reading takes): nothing is appended to it, and that is said (fx77c).
  // The extension's contextFor asked first and kept none as given: they come with a later call (rev82d F2).
  if (closing === undefined) {
    say?.({
      level: "warning",
      code: "tool-result-markup-as-text",
      message: `the tool's result ${UNCLOSABLE_RESULT}: the instruction files it touched were not added to it and come with a later call (${files.map((f) => f.path).join(", ")})`,
    });
    return undefined;
  }
  const content = [
    ...(event.content ?? []),
    { type: "text" as const, text: closing + formatTouched(files, cwd, undefined, say) },
  ];
  // Content replaced without structured content drops it; the result's own is still right.
  return event.structuredContent === undefined
    ? { content }
    : { content, structuredContent: event.structuredContent };
}

/**
 * What our part starts with (worked out when first asked) so that the tool's own text (a repository file
 * pi's read printed) leaves nothing open over it: pi joins a result's text
 * parts with one line break, so an output ending inside a fence, an HTML
 * block, a comment or an element no reader shows (`<div hidden>`: review
 * rev58b F1) would take the files' elements and the user's glob rule into
 * it, and one ending in a list item or quote would take our first line as a
 * lazy line. The closer (`hostClosingAfter`) is the one the text needs
 * with pi's line break after it, read as the model reads them: computed
 * without that line break, a closer of a block in a quote came after a blank
 * line, which had ended the quote, and opened a new quote whose paragraph
 * took our lead line and the files as lazy lines. Then a blank line.
 */
export function closingOf(content: readonly PiContentPart[]): () => string | undefined {
  const text = content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
  if (text === "") return () => "";
  // Worked out once, when first asked (`hostClosing`): only a call that brings files pays for it.
  const closer = hostClosing(`${text}\n`);
  return () => {
    const found = closer();
    if (found === undefined) return undefined;
    return found === "" ? "\n" : `${found}\n\n`;
  };
}

/** The diagnostics of a touch worth saying to the user: refused files, not paths outside the project. */
export function touchProblems(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.level !== "info");
}
