import type { PromptBlock, RenderResult } from "../types.js";

/** A text block of the Anthropic Messages API's `system` array. */
export interface AnthropicSystemBlock {
  type: "text";
  text: string;
  cache_control?: { type: "ephemeral" };
}

/** The Anthropic API takes at most four cache breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The prompt as the `system` array of an Anthropic Messages API request: one
 * text block per block of the result, with a cache breakpoint
 * (`cache_control: { type: "ephemeral" }`) on the last block of each run of
 * stable and of session sections, so the stable prefix stays cached when a
 * session fact changes and the session prefix for as long as it holds. A
 * volatile block gets none (it would be written to the cache and never read).
 * `maxBreakpoints` (default 4, the API's limit) keeps the first ones; a host
 * that marks its tools or messages too passes what it leaves free.
 */
export function anthropicSystem(
  result: Pick<RenderResult, "blocks">,
  options: { maxBreakpoints?: number } = {},
): AnthropicSystemBlock[] {
  let left = Math.max(
    0,
    Math.min(options.maxBreakpoints ?? MAX_CACHE_BREAKPOINTS, MAX_CACHE_BREAKPOINTS),
  );
  return result.blocks.map((block, i) => {
    const next: PromptBlock | undefined = result.blocks[i + 1];
    const endsRun = block.cache !== "volatile" && next?.cache !== block.cache;
    if (endsRun && left > 0) {
      left--;
      return { type: "text", text: block.text, cache_control: { type: "ephemeral" } };
    }
    return { type: "text", text: block.text };
  });
}

/** A system message of the OpenAI Chat Completions API. */
export interface OpenAiSystemMessage {
  role: "system";
  content: string;
}

/**
 * The prompt as one OpenAI system message. OpenAI caches the longest prefix
 * it has seen by itself (no breakpoints); the blocks come stable first, then
 * session, then volatile, so the part that changes least leads.
 */
export function openAiSystemMessage(result: Pick<RenderResult, "blocks">): OpenAiSystemMessage {
  return { role: "system", content: result.blocks.map((b) => b.text).join("") };
}
