/**
 * The one order of names in the workspace tree, the same on every machine
 * (no locale is consulted) and close to how a person sorts: letters compare
 * without case first (`readme.md` beside `README.md`, not after every
 * capital), `_` comes before `-` and both before `.`, digits before letters.
 * Names equal but for case then order by code unit (`A` before `a`), so two
 * different names never tie.
 */
export function compareNames(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = foldKey(a.charCodeAt(i));
    const y = foldKey(b.charCodeAt(i));
    if (x !== y) return x - y;
  }
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const UNDERSCORE = 0x5f;
const HYPHEN = 0x2d;

/**
 * A code unit's place in the case-blind comparison: ASCII capitals as their
 * small letters, `_` just below `-`, and every other unit by its code (`.`
 * and the other punctuation below the digits, the digits below the letters).
 * Non-ASCII letters compare by code unit: folding them would need Unicode
 * tables whose version differs between Node releases.
 */
function foldKey(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  if (code === UNDERSCORE) return HYPHEN - 0.5;
  return code;
}
