import { type BoundedCounter, boundedCounter, type CountDeadline } from "../tokens.js";

export type { TokenCounter } from "../tokens.js";

/**
 * Token counts with the o200k_base encoding (gpt-tokenizer), the one recent
 * OpenAI models use: an estimate for every other model. The bounded counter
 * of `src/tokens.ts` (loaded on first use, long runs counted in pieces,
 * each piece's count kept for the one fit it is made for: each shrink step
 * renders a section again with most of its text unchanged). Past `deadline`
 * it over-counts the rest of a text (a token a byte), so a fit that had to
 * estimate still never lets a prompt over its budget through.
 */
export function o200kCounter(deadline?: CountDeadline): BoundedCounter {
  return boundedCounter({ ...(deadline ? { deadline } : {}), estimate: "upper" });
}
