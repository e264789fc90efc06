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
    counter = (text) => {
      let n = 0;
      for (const piece of pieces(text)) n += encoding.countTokens(piece, plain);
      return n;
    };
  }
  return counter;
}

/**
 * Longest run without white space (or of white space) counted in one piece. Byte-pair merging
 * costs the square of a word's length: a 128 KB line of one letter took
 * 7.5 s to count, and the 900 KB APPEND_SYSTEM.md of attack review 11 held
 * `explain` (which always counts) for minutes. No token is this long, so a
 * cut inside such a run changes the count by a token at most.
 */
export const MAX_COUNTED_RUN = 256;

/**
 * `text` cut inside each run of more than {@link MAX_COUNTED_RUN} characters
 * without white space, or of white space, and nowhere else: ordinary text is
 * one piece, counted exactly as a whole.
 */
export function pieces(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let run = 0;
  let white = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Space, tab, newline, carriage return, form feed, vertical tab.
    const isWhite = code === 32 || (code >= 9 && code <= 13);
    if (isWhite !== white) {
      white = isWhite;
      run = 0;
    }
    // Not between the halves of a surrogate pair.
    if (++run > MAX_COUNTED_RUN && !(code >= 0xdc00 && code <= 0xdfff)) {
      out.push(text.slice(start, i));
      start = i;
      run = 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** White space as the encoder's pre-split reads it (`\s`, Unicode's included). */
function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    (code > 0x7f && /\s/.test(String.fromCharCode(code)))
  );
}

/**
 * A counter for one report that counts the same text many times (`explain`
 * counts each section, then the whole prompt, then its cache prefixes: the
 * same megabytes five times, 10 s after a 1 s deadline for a project's
 * 3 MB of context files). It cuts a text where the encoder's pre-split
 * always cuts (before a space between two non-spaces; after a line break
 * before a non-space other than `/`) and keeps each piece's count, so a
 * piece seen before costs a lookup. Exact: the same count as
 * {@link tokenCounter}'s. Its memory goes with the report; keep none.
 */
export function memoTokenCounter(): TokenCounter {
  const count = tokenCounter();
  const memo = new Map<string, number>();
  const piece = (text: string): number => {
    let n = memo.get(text);
    if (n === undefined) {
      n = count(text);
      memo.set(text, n);
    }
    return n;
  };
  return (text) => {
    let n = 0;
    let start = 0;
    let run = 0;
    let white = false;
    for (let p = 0; p < text.length; p++) {
      const code = text.charCodeAt(p);
      const isWhite = code === 32 || (code >= 9 && code <= 13);
      if (isWhite !== white) {
        white = isWhite;
        run = 0;
      }
      // Where {@link pieces} cuts a long run, or where the pre-split cuts.
      let cut = ++run > MAX_COUNTED_RUN && !(code >= 0xdc00 && code <= 0xdfff);
      if (cut) run = 1;
      else if (p > 0) {
        const before = text.charCodeAt(p - 1);
        cut =
          code === 32
            ? !isSpace(before) && p + 1 < text.length && !isSpace(text.charCodeAt(p + 1))
            : before === 10 && code !== 0x2f && !isSpace(code);
      }
      if (cut) {
        n += piece(text.slice(start, p));
        start = p;
      }
    }
    return n + piece(text.slice(start));
  };
}
