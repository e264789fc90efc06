import { createRequire } from "node:module";

/** The encoding token counts are estimated with (OpenAI's o200k); other models' tokenizers differ. */
export const TOKEN_ENCODING = "o200k_base";

/** Counts the tokens of a text: an estimate for any model but those using {@link TOKEN_ENCODING}. */
export type TokenCounter = (text: string) => number;

interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

let counter: TokenCounter | undefined;

/**
 * The token counter, loading gpt-tokenizer's o200k encoding on first use
 * (about 200 ms and several MB). Nothing imports the tokenizer at module load:
 * only `sysprompt explain` and a render in which some section declares
 * `maxTokens` call this, so a plain render never pays for it. Loaded with
 * `require` so that render can stay synchronous. Text that looks like a
 * special token (`<|endoftext|>`) counts as plain text, as a prompt sends it.
 */
export function tokenCounter(): TokenCounter {
  if (!counter) {
    const encoding = createRequire(import.meta.url)(
      `gpt-tokenizer/encoding/${TOKEN_ENCODING}`,
    ) as Encoding;
    const plain = { disallowedSpecial: new Set<string>() };
    counter = (text) => encoding.countTokens(text, plain);
  }
  return counter;
}
