import { join } from "node:path";
import { expect } from "vitest";
import { tempDir, writeFiles } from "../api/_helpers.js";

/** Gemini CLI's DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD: a shell result longer than this is cut. */
export const GEMINI_CUT = 40_000;

/**
 * What Gemini CLI 0.61 sends its model for a tool whose string result is
 * `result`, after the hook replied `reply`: the reply's text with `<` and
 * `>` written as `&lt;` and `&gt;` (getAdditionalContext), appended in
 * `<hook_context>`; for a shell command, past {@link GEMINI_CUT} characters
 * only the first fifth and the last four fifths, a line between them.
 */
export function geminiSends(result: string, reply: string, shell: boolean): string {
  const parsed = JSON.parse(reply) as { hookSpecificOutput?: { additionalContext?: string } };
  const context = parsed.hookSpecificOutput?.additionalContext;
  const whole =
    context === undefined
      ? result
      : `${result}\n\n<hook_context>${context.replace(/</g, "&lt;").replace(/>/g, "&gt;")}</hook_context>`;
  if (!shell || whole.length <= GEMINI_CUT) return whole;
  const head = Math.floor(GEMINI_CUT * 0.2);
  return `${whole.slice(0, head)}\n\n... [cut] ...\n\n${whole.slice(whole.length - (GEMINI_CUT - head))}`;
}

/** The reply's text as Gemini CLI appends it (escaped), failing when the reply added none. */
export function geminiContext(reply: string): string {
  const context = (JSON.parse(reply) as { hookSpecificOutput?: { additionalContext?: string } })
    .hookSpecificOutput?.additionalContext;
  expect(context).toBeTypeOf("string");
  return (context as string).replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * A project `p` (a repository) and a home whose `~/.pi/agent/rules/ts.md` is
 * your glob rule for every `.ts` file (`USER-GLOB-RULE`), with `files` (paths under
 * the temporary folder) beside them: the cwd and where the hook runs (its
 * cache folder and home).
 */
export function geminiProject(files: Record<string, string>) {
  const base = tempDir();
  writeFiles(base, {
    "p/.git/HEAD": "ref: refs/heads/main\n",
    "home/.pi/agent/rules/ts.md":
      '---\nglobs: "**/*.ts"\ndescription: ts rule\n---\nUSER-GLOB-RULE: strict types.\n',
    ...files,
  });
  const home = join(base, "home");
  return { cwd: join(base, "p"), where: { env: { XDG_CACHE_HOME: join(base, "cache") }, home } };
}

/**
 * Gemini CLI's AfterTool input for `tool` (`read_file` of pkg/sub/x.ts, or a
 * shell command reading it) whose result is `llmContent`, in session `session`.
 */
export const geminiCall = (session: string, cwd: string, tool: string, llmContent: string) =>
  JSON.stringify({
    session_id: session,
    cwd,
    hook_event_name: "AfterTool",
    tool_name: tool,
    tool_input:
      tool === "read_file" ? { file_path: "pkg/sub/x.ts" } : { command: "cat pkg/sub/x.ts" },
    tool_response: { llmContent, returnDisplay: "" },
  });
