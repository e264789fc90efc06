import { sha256Hex } from "../_crypto.js";

/**
 * The frontmatter key `sysprompt eject` writes into a copied section: which
 * builtin text the copy started from, so `check` can tell when the builtin
 * has moved since (`ejected-from: sha256:3f2a9c01b7de`).
 */
export const EJECTED_FROM_KEY = "ejected-from";

/**
 * `sha256:` and the first 12 hex digits of the digest: 48 bits, plenty to
 * tell one version of one file from the next, and short enough to read.
 */
export const EJECTED_FROM = /^sha256:[0-9a-f]{12}$/;

/** How many hex digits of the digest are kept. */
const HASH_DIGITS = 12;

/**
 * The record of a builtin section's text: its line endings normalised first,
 * so a checkout that turned LF into CRLF still has the same version.
 */
export function builtinHash(text: string): string {
  const digest = sha256Hex(text.replace(/\r\n?/g, "\n"));
  return `sha256:${digest.slice(0, HASH_DIGITS)}`;
}

/**
 * `text` (a builtin section file) with `ejected-from: <hash>` added as the
 * last key of its frontmatter, or in a block of its own when it has none.
 * Every other byte is kept, so the copy renders exactly as the builtin does.
 */
export function withEjectedFrom(text: string, hash: string): string {
  const line = `${EJECTED_FROM_KEY}: ${hash}`;
  const open = /^---[ \t]*(\r?\n)/.exec(text);
  if (open) {
    const eol = open[1] ?? "\n";
    const close = /^---[ \t]*\r?$/m;
    const rest = text.slice(open[0].length);
    const end = close.exec(rest);
    if (end) {
      const at = open[0].length + end.index;
      return `${text.slice(0, at)}${line}${eol}${text.slice(at)}`;
    }
  }
  return `---\n${line}\n---\n${text}`;
}
