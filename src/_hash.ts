/**
 * A 128-bit hash of `text` in 32 hex digits, for naming a cache file after a
 * value that must not name a path itself (an agent's session id). Not
 * cryptographic: it keeps apart values that differ, never values someone
 * chose to collide, and it costs no `node:crypto` (some 11 M instructions to
 * load and set up, in a hook that runs on every tool call).
 */
export function hash128Hex(text: string): string {
  let out = "";
  for (const [seed, multiplier] of LANES) {
    let h = seed ^ text.length;
    for (let i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), multiplier);
      h ^= h >>> 15;
    }
    out += (fmix32(h) >>> 0).toString(16).padStart(8, "0");
  }
  return out;
}

/** Four 32-bit lanes, each with its own seed and odd multiplier. */
const LANES: readonly (readonly [number, number])[] = [
  [0x9e3779b9, 0x5bd1e995],
  [0x85ebca6b, 0xcc9e2d51],
  [0xc2b2ae35, 0x1b873593],
  [0x27d4eb2f, 0x2545f491],
];

/** MurmurHash3's finaliser: every input bit moves every output bit. */
function fmix32(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x;
}
