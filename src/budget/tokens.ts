import { memoTokenCounter, type TokenCounter } from "../tokens.js";

export type { TokenCounter } from "../tokens.js";

/**
 * Token counts with the o200k_base encoding (gpt-tokenizer), the one recent
 * OpenAI models use: an estimate for every other model. The counter of
 * `src/tokens.ts` (loaded on first use, kept for the process, long runs
 * counted in pieces so that a count costs linear time), keeping each
 * piece's count for the one fit it is made for: each shrink step renders a
 * section again with most of its text unchanged.
 */
export function o200kCounter(): TokenCounter {
  return memoTokenCounter();
}
