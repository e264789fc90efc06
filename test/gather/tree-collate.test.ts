import { describe, expect, it } from "vitest";
import { compareNames, firstAndLastByName, nameKeys } from "../../src/gather/tree/_collate.js";

/** A small seeded generator (mulberry32): the same names on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The collation's odd cases: each ASCII unit (capitals, `_` beside `-` and
 * `.`, the units moved to make room for `_`: `-` to `@`, and `[` to `` ` ``
 * around them), non-ASCII letters with and without case, U+FFFD, a
 * surrogate pair, lone surrogates, the last units, and NUL, which no file name
 * holds but a caller may pass.
 */
const UNITS = [
  ...Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c)),
  "é",
  "É",
  "ß",
  "İ",
  "\u00ff",
  "\u0100",
  "\uFFFD",
  "😀",
  "\ud800",
  "\udfff",
  "\uffff",
];
const COMMON = ["a", "A", "b", "B", "_", "-", ".", "0", "9", "@", "z", "Z", "["];

function names(next: () => number, count: number, withNul: boolean): string[] {
  const units = withNul ? UNITS : UNITS.filter((u) => u !== "\0");
  const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)] as string;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    // Shared prefixes and near twins are where an order can go wrong.
    const base = i > 0 && next() < 0.5 ? (out[Math.floor(next() * i)] as string) : "";
    let name = base.slice(0, Math.floor(next() * (base.length + 1)));
    const length = Math.floor(next() * 6);
    for (let j = 0; j < length; j++) name += pick(next() < 0.7 ? COMMON : units);
    out.push(name);
  }
  return out;
}

const sign = (n: number) => Math.sign(n);

describe("nameKeys: keys in compareNames' order", () => {
  it("orders every pair of random names as compareNames does, the case tie by code unit", () => {
    for (const withNul of [false, true]) {
      const next = random(withNul ? 7 : 24);
      const list = names(next, 600, withNul);
      const keys = nameKeys(list);
      expect(keys).toHaveLength(list.length);
      for (let i = 0; i < list.length; i++) {
        for (let j = 0; j < list.length; j++) {
          const a = list[i] as string;
          const b = list[j] as string;
          const ka = keys[i] as string;
          const kb = keys[j] as string;
          const byKey = ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0;
          if (byKey !== sign(compareNames(a, b))) {
            expect({ a, b, byKey }).toEqual({ a, b, byKey: sign(compareNames(a, b)) });
          }
        }
      }
    }
  });

  it("folds only ASCII: a key is as long as its name", () => {
    const list = ["README.md", "a_b-c.d", "Éa", "x\ud800y", "😀Z"];
    expect(nameKeys(list).map((k) => k.length)).toEqual(list.map((n) => n.length));
    expect(nameKeys(["ABC", "abc"])).toEqual(["abc", "abc"]);
  });
});

describe("firstAndLastByName: what a folder listed by name shows", () => {
  const next = random(60);
  const list = [...new Set(names(next, 3000, false))];
  const sorted = [...list].sort(compareNames);

  it("the first `count` by name, then the last, as a whole sort would give them", async () => {
    for (const count of [0, 1, 2, 11, 500, list.length - 2, list.length - 1]) {
      expect(await firstAndLastByName(list, count)).toEqual([
        ...sorted.slice(0, count),
        sorted[sorted.length - 1],
      ]);
    }
    // In order already, or the other way round (a listing in creation order).
    expect(await firstAndLastByName(sorted, 11)).toEqual([...sorted.slice(0, 11), sorted.at(-1)]);
    const reversed = [...sorted].reverse();
    expect(await firstAndLastByName(reversed, 11)).toEqual([...sorted.slice(0, 11), sorted.at(-1)]);
  });

  it("a folder of no more than `count` names: each name once", async () => {
    expect(await firstAndLastByName(list, list.length)).toEqual(sorted);
    expect(await firstAndLastByName(list, list.length + 5)).toEqual(sorted);
    expect(await firstAndLastByName(["b", "A", "a"], 11)).toEqual(["A", "a", "b"]);
    expect(await firstAndLastByName([], 11)).toEqual([]);
  });

  it("hears the signal between slices", async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `${"x".repeat(200)}${i}`);
    const controller = new AbortController();
    // Fires at the pass's first turn of the event loop, after it began.
    setImmediate(() => controller.abort(new Error("deadline")));
    await expect(firstAndLastByName(many, 11, controller.signal)).rejects.toThrow("deadline");
  });
});
