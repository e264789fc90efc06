import { describe, expect, it } from "vitest";
import {
  escapeWrapperTags,
  MAX_PROJECT_FOLD_UNITS,
  MAX_PROJECT_NAMES,
  MAX_TAG_NAME,
  wrapperNames,
} from "../../src/_prompt-text.js";
import type { LoadedLayer } from "../../src/locate/load-layer.js";
import { projectElementNames } from "../../src/locate/project-names.js";
import { cpuMs } from "../_cpu.js";

// Review rev48b F1 (medium). A trusted project's templates gave at most
// 4,096 distinct names, but every closer was still folded (NFC): one
// 256-unit closer of combining marks in 12 blocks of descending class,
// repeated over 16 Mi units of partials and disabled sections (or written in
// 2,197 spellings that fold to one name), held a render 5.9 s of CPU at a
// 3 s deadline and hook calls past their 5 s (your glob rule not given).
// Now a spelling already folded costs nothing more, and at most 1 Mi units
// of closers' names are folded: the rest of the templates is not read
// (`element-names-capped`). F5 (low): a name whose 256th unit starts a
// surrogate pair was read (257 units), while a template's 257-unit name gives
// no name: now it is made literal unread, as any name past the bound.

/** Combining marks of descending class: each block's NFC reordering swaps it past every later one. */
const MARKS = [
  "\u0345",
  "\u035d",
  "\u035c",
  "\u0315",
  "\u0301",
  "\u05ae",
  "\u059a",
  "\u0316",
  "\u302a",
  "\u031b",
  "\u0321",
  "\u0334",
];

/** Spelling `k` of one name: `a`, 12 blocks of 19-21 marks (by the base-3 digits of `k`), `a`. */
function spelling(k: number): string {
  let name = "a";
  for (let b = 0, n = k; b < MARKS.length; b++, n = Math.floor(n / 3))
    name += (MARKS[b] ?? "").repeat(19 + (n % 3));
  return `${name}a`;
}

/** A project's templates of `files` partials, each about `units` of closers: `</${spelling}>`. */
function partials(files: number, units: number, distinct: boolean): string[] {
  const out: string[] = [];
  for (let f = 0, k = 0; f < files; f++) {
    const parts: string[] = [];
    for (let size = 0; size < units; k++) {
      const closer = `</${spelling(distinct ? k : 0)}>`;
      parts.push(closer);
      size += closer.length;
    }
    out.push(parts.join(""));
  }
  return out;
}

const room = () => ({ max: MAX_PROJECT_NAMES }) as { max: number; cut?: number; work?: boolean };

describe("hostile repository: a trusted project's closers cost their folding once, within a bound", () => {
  it("one closer of marks repeated over 8 Mi units is folded once, with no cut", () => {
    const texts = [...partials(8, 1_040_000, false), "</team_policy>"];
    const r = room();
    const { result, ms } = cpuMs(() => wrapperNames([], false, texts, {}, r));
    // Before: about 2.3 s of CPU (every match folded).
    expect(ms).toBeLessThan(700);
    expect(r.cut).toBeUndefined();
    expect(result.has("team_policy")).toBe(true);
  });

  it("30,000 spellings folding to one name: the fold stops at its bound and says so", () => {
    const texts = partials(8, 1_040_000, true);
    const r = room();
    const { result, ms } = cpuMs(() => wrapperNames([], false, texts, {}, r));
    // Before: about 2 s of CPU, no cut (one name).
    expect(ms).toBeLessThan(900);
    expect(r.cut).toBe(1);
    expect(r.work).toBe(true);
    expect(result.has("aa")).toBe(true);
    // The render's and the hook's names say where the work ran out.
    const layer = {
      sections: [],
      partials: { q0: texts[0], q1: texts[1] },
    } as unknown as LoadedLayer;
    const { diagnostics } = projectElementNames([layer], "/p/.pi", {});
    expect(diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["element-names-capped", "/p/.pi/partials/q1.md"],
    ]);
    expect(diagnostics[0]?.message).toContain(`${MAX_PROJECT_FOLD_UNITS} characters`);
  });

  it("a name whose last unit within the bound starts a surrogate pair is made literal unread", () => {
    const names = new Set(["team_policy"]);
    // 255 units and a mathematical `a` (two units): 257 units, past the bound.
    const long = `</${"x".repeat(MAX_TAG_NAME - 1)}\u{1d41a}>`;
    expect(escapeWrapperTags(long, names)).toBe(`&lt;${long.slice(1)}`);
    // 254 and the pair: 256 units, read, and no name of ours.
    const fits = `</${"x".repeat(MAX_TAG_NAME - 2)}\u{1d41a}>`;
    expect(escapeWrapperTags(fits, names)).toBe(fits);
  });
});
