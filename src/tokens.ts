import { createRequire } from "node:module";
import { monotonicMs } from "./_pace.js";

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
 * When exact counting must give way to an estimate: the render's deadline, as
 * a time in milliseconds on `clock` (default: the gathering's clock,
 * `monotonicMs`, on which `preparePrompt` puts `PreparedPrompt.deadline`).
 */
export interface CountDeadline {
  at: number;
  clock?: () => number;
}

/** A count, and whether part of it was estimated from the text's length. */
export interface TokenTally {
  tokens: number;
  estimated: boolean;
}

/** A {@link TokenCounter} that can say which of its counts were estimated. */
export interface BoundedCounter extends TokenCounter {
  tally(text: string): TokenTally;
  /** True once any count was estimated. */
  readonly estimated: boolean;
  /** Bytes a token on the text counted exactly so far (what `ratio` estimates with). */
  readonly bytesPerToken: number;
}

/**
 * How the part of a text left when time is up is counted: `ratio` at the
 * bytes a token measured on what was counted (explain's figures), `upper`
 * as one token a byte, which no count can exceed (every token is at least
 * a byte): what a budget must use, so that it never lets through a prompt
 * over its limit.
 */
export type EstimateMode = "ratio" | "upper";

/**
 * Characters still counted exactly after the deadline, each counter: a
 * prompt this long always counts exactly (tens of ms), whatever the time, so
 * an ordinary prompt's counts do not depend on how late its gathering was.
 */
export const COUNTED_PAST_DEADLINE = 64 * 1024;
/** Characters counted between two readings of the clock. */
const CLOCK_EVERY = 4096;
/**
 * Longest piece counted in one call of the encoder. Text the pre-split never
 * cuts (`a  b  c…` of double spaces, `a\n/b\n/…`) would otherwise be one
 * piece of megabytes, counted past any deadline; cut here it is a token off
 * at most a cut, as a long run is. Ordinary text is cut every word.
 */
const MAX_PIECE = 8192;
/** Bytes a token assumed before enough text was counted to measure it. */
const DEFAULT_BYTES_PER_TOKEN = 4;
/** Bytes counted exactly before their ratio is trusted. */
const MEASURED_ENOUGH = 4096;

/**
 * The one counter sysprompt counts with (render's budget and `maxTokens`,
 * `explain`, `explain --simulate`, `serve`). It cuts a text where the
 * encoder's pre-split always cuts (before a space between two non-spaces;
 * after a line break before a non-space other than `/`) and keeps each
 * piece's count, so a piece seen before costs a lookup: exact, the same
 * count as {@link tokenCounter}'s (but for text with no cut in 8 Ki
 * characters, see {@link MAX_PIECE}), and a report that counts the prompt five
 * times (`explain`: each section, the whole, its cache prefixes) pays about
 * once. Its memory goes with the report; keep none.
 *
 * With a `deadline`, a piece not counted before is counted only while time
 * remains (or within {@link COUNTED_PAST_DEADLINE} characters after it):
 * then the rest of the text is estimated from its UTF-8 length, by `estimate`
 * (default `ratio`), and the count says so (`tally`, `estimated`). An
 * untrusted project's 3 MB of words never repeated took 2-4 s to count
 * after a render of 1 s.
 */
export function boundedCounter(
  options: { deadline?: CountDeadline; estimate?: EstimateMode } = {},
): BoundedCounter {
  const { deadline } = options;
  const upper = options.estimate === "upper";
  const count = tokenCounter();
  const memo = new Map<string, number>();
  let measured = { bytes: 0, tokens: 0 };
  let estimated = false;
  // Characters counted since the clock was last read, and since the deadline passed.
  let sinceClock = 0;
  let pastDeadline: number | undefined;
  /** Whether the next piece not counted before may still be counted. */
  const inTime = (): boolean => {
    if (deadline === undefined) return true;
    if (pastDeadline !== undefined) return pastDeadline < COUNTED_PAST_DEADLINE;
    if (sinceClock >= CLOCK_EVERY) {
      sinceClock = 0;
      if ((deadline.clock ?? monotonicMs)() >= deadline.at) pastDeadline = 0;
    }
    return true;
  };
  const bytesPerToken = (): number =>
    measured.bytes >= MEASURED_ENOUGH && measured.tokens > 0
      ? measured.bytes / measured.tokens
      : DEFAULT_BYTES_PER_TOKEN;
  const piece = (text: string): number | undefined => {
    let n = memo.get(text);
    if (n === undefined) {
      if (!inTime()) return undefined;
      n = count(text);
      memo.set(text, n);
      sinceClock += text.length;
      if (pastDeadline !== undefined) pastDeadline += text.length;
      measured = {
        bytes: measured.bytes + Buffer.byteLength(text, "utf8"),
        tokens: measured.tokens + n,
      };
    }
    return n;
  };
  const rest = (text: string): number => {
    estimated = true;
    const bytes = Buffer.byteLength(text, "utf8");
    return upper ? bytes : Math.ceil(bytes / bytesPerToken());
  };
  const tally = (text: string): TokenTally => {
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
      // Where {@link pieces} cuts a long run, a piece is too long, or where the pre-split cuts.
      let cut =
        (++run > MAX_COUNTED_RUN || p - start >= MAX_PIECE) && !(code >= 0xdc00 && code <= 0xdfff);
      if (cut) run = 1;
      else if (p > 0) {
        const before = text.charCodeAt(p - 1);
        cut =
          code === 32
            ? !isSpace(before) && p + 1 < text.length && !isSpace(text.charCodeAt(p + 1))
            : before === 10 && code !== 0x2f && !isSpace(code);
      }
      if (cut) {
        const k = piece(text.slice(start, p));
        if (k === undefined) return { tokens: n + rest(text.slice(start)), estimated: true };
        n += k;
        start = p;
      }
    }
    const k = piece(text.slice(start));
    if (k === undefined) return { tokens: n + rest(text.slice(start)), estimated: true };
    return { tokens: n + k, estimated: false };
  };
  const counter = (text: string): number => tally(text).tokens;
  return Object.defineProperties(counter, {
    tally: { value: tally },
    estimated: { get: () => estimated },
    bytesPerToken: { get: bytesPerToken },
  }) as BoundedCounter;
}

/** {@link boundedCounter} without a deadline: exact, however long it takes. For tests and benches. */
export function memoTokenCounter(): TokenCounter {
  return boundedCounter();
}
