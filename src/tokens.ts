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
 * Longest run of spaces, or of anything else, counted in one piece. The
 * encoder's merging costs the square of a word's length: a context file of
 * one 200,000-letter word took 22 s to count, synchronously, past any
 * deadline. A longer run is counted a piece at a time (the estimate moves by
 * a token a piece at most; prose has no such runs, so its count is exact).
 */
export const MAX_TOKEN_RUN = 128;

/** Whether a UTF-16 unit is one a text's words are split at. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

/**
 * `count` of `text`, taken piece by piece where a run of spaces or non-spaces
 * is longer than {@link MAX_TOKEN_RUN} (never between the two halves of a
 * surrogate pair), so that counting stays linear in the text's length.
 */
export function countInPieces(text: string, count: TokenCounter): number {
  let total = 0;
  let start = 0;
  let run = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const s = isSpace(code);
    if (s !== space) {
      space = s;
      run = 1;
      continue;
    }
    run++;
    if (run > MAX_TOKEN_RUN && (code < 0xdc00 || code > 0xdfff)) {
      total += count(text.slice(start, i));
      start = i;
      run = 1;
    }
  }
  return total + count(text.slice(start));
}

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
    counter = (text) => countInPieces(text, (piece) => encoding.countTokens(piece, plain));
  }
  return counter;
}
