import { createRequire } from "node:module";
import type * as O200k from "gpt-tokenizer/encoding/o200k_base";

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

let counter: TokenCounter | undefined;

/**
 * Token counts with the o200k_base encoding (gpt-tokenizer), the one recent
 * OpenAI models use: an estimate for every other model. Its tables take about
 * 0.3 s to load, more than a whole CLI render, so they are required on first
 * use — only when a budget is given — and kept for the process. Special-token
 * text such as `<|endoftext|>` in a context file counts as plain text (the
 * library would throw on it by default).
 */
export function o200kCounter(): TokenCounter {
  if (!counter) {
    const o200k = createRequire(import.meta.url)(
      "gpt-tokenizer/encoding/o200k_base",
    ) as typeof O200k;
    const options = { disallowedSpecial: new Set<string>() };
    counter = (text) => o200k.countTokens(text, options);
  }
  return counter;
}
