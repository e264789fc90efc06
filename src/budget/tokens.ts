import { type TokenCounter, tokenCounter } from "../tokens.js";

export type { TokenCounter } from "../tokens.js";

/**
 * Token counts with the o200k_base encoding (gpt-tokenizer), the one recent
 * OpenAI models use: an estimate for every other model. The one counter of
 * `src/tokens.ts`: loaded on first use (only when a budget is given), kept
 * for the process, and linear in a text's length however long its words are.
 */
export function o200kCounter(): TokenCounter {
  return tokenCounter();
}
