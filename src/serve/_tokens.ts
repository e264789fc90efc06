/**
 * Token estimates for the inspector, with OpenAI's o200k encoding (other
 * models' tokenizers differ; the page says it is an estimate). gpt-tokenizer
 * is imported on first use only: it takes a few MB and about 200 ms to load,
 * which `sysprompt serve` pays once and no other command pays at all.
 *
 * When `src/tokens.ts` (explain) is on main this module can become a re-export
 * of its `tokenCounter`.
 */
export const TOKEN_ENCODING = "o200k_base";

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

/** The counter, loading the encoding once per process. */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then((encoding) => {
    // Text that looks like a special token (`<|endoftext|>`) counts as plain text, as a prompt sends it.
    const plain = { disallowedSpecial: new Set<string>() };
    return (text: string) => encoding.countTokens(text, plain);
  });
  return loading;
}
