import { closingAfter } from "../_fence.js";
import { wellFormed } from "../_text.js";
import { HOOK_EVENTS, type HookAgent } from "./input.js";

/**
 * What `sysprompt hook AGENT` prints on stdout. Pure. With `context`: the
 * agent's hook output that appends text to the tool result it sends the
 * model (`hookSpecificOutput.additionalContext`, the same field in all
 * three). Without: the reply that changes nothing, which Claude Code and
 * Codex take as empty output and Gemini CLI as `{}` (it parses stdout as JSON).
 */
export function hookReply(agent: HookAgent, context: string | undefined, closer = ""): string {
  if (context === undefined || context === "") return agent === "gemini-cli" ? "{}\n" : "";
  const text = closer === "" ? context : `${closer}\n\n${context}`;
  const output = { hookEventName: HOOK_EVENTS[agent], additionalContext: wellFormed(text) };
  return `${JSON.stringify({ hookSpecificOutput: output })}\n`;
}

/**
 * Longest tool result whose text is read for what it leaves open: reading
 * is linear, but 1 MiB of `>` took 1.9 s at a load of 19 on two cores (30 MB,
 * which the hook's 32 MiB input holds, 84 s). Gemini CLI's read_file gives
 * at most 2,000 lines.
 */
export const MAX_RESULT_TEXT = 1024 * 1024;

/**
 * What the hook's reply starts with ({@link hookReply}'s `closer`): the
 * closer of what the tool's result leaves open, for an agent that appends
 * the hook's text to it ({@link textBefore}), else "". Undefined when the
 * result is longer than {@link MAX_RESULT_TEXT}: what it leaves open is not
 * known, so nothing may follow it.
 */
export function replyCloser(agent: HookAgent, resultText: string | undefined): string | undefined {
  const before = textBefore(agent, resultText);
  if (before === undefined) return "";
  return before.length > MAX_RESULT_TEXT ? undefined : closingAfter(before);
}

/**
 * What the model reads right before the hook's text in the same string,
 * for an agent that appends it to the tool's result: Gemini CLI writes
 * `\n\n<hook_context>`, the text and `</hook_context>` after the result's
 * text, which is the repository's (a file its read printed); one ending
 * inside a fence, an HTML block or a comment would take the files given
 * into it, so the reply starts with the closer that text needs
 * (`closingAfter`). Undefined for Claude Code, which adds the hook's text as
 * a system reminder of its own, and Codex, which adds it as a developer
 * message of its own (`<hook_context>…</hook_context>`): nothing of the
 * repository's comes before it there.
 */
export function textBefore(agent: HookAgent, resultText: string | undefined): string | undefined {
  if (agent !== "gemini-cli") return undefined;
  return `${resultText ?? ""}\n\n<hook_context>`;
}
