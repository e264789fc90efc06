import { HOOK_EVENTS, type HookAgent } from "./input.js";

/**
 * What `sysprompt hook AGENT` prints on stdout. Pure. With `context`: the
 * agent's hook output that appends text to the tool result it sends the
 * model (`hookSpecificOutput.additionalContext`, the same field in all
 * three). Without: the reply that changes nothing, which Claude Code and
 * Codex take as empty output and Gemini CLI as `{}` (it parses stdout as JSON).
 */
export function hookReply(agent: HookAgent, context: string | undefined): string {
  if (context === undefined || context === "") return agent === "gemini-cli" ? "{}\n" : "";
  const output = { hookEventName: HOOK_EVENTS[agent], additionalContext: context };
  return `${JSON.stringify({ hookSpecificOutput: output })}\n`;
}
