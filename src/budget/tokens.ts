import { type TokenCounter, tokenCounter } from "../tokens.js";

export type { TokenCounter } from "../tokens.js";

/**
 * Token counts with the o200k_base encoding (gpt-tokenizer), the one recent
 * OpenAI models use: an estimate for every other model. The counter of
 * `src/tokens.ts` (loaded on first use, kept for the process, long runs
 * counted in pieces so that a count costs linear time).
 */
export function o200kCounter(): TokenCounter {
  return tokenCounter();
}
