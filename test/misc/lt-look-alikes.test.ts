import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LT_LOOK_ALIKES } from "../../src/_lt-look-alikes.js";

// src/_lt-look-alikes.ts is generated (scripts/gen-lt-look-alikes.py) from Unicode's data, kept
// here as test/misc/_lt-look-alikes.tsv (every Ps/Pi code point with its name, and the rows of
// confusables.txt whose prototype is `<`). The table is made again from it by the rule and compared;
// the data's Ps/Pi set is held to Node's, so a newer Unicode with a new bracket fails here.

const DATA = new URL("./_lt-look-alikes.tsv", import.meta.url);

function rows(): { code: number; kind: string; name: string }[] {
  return readFileSync(DATA, "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [code, kind, name] = line.split("\t");
      return { code: Number.parseInt(code ?? "", 16), kind: kind ?? "", name: name ?? "" };
    });
}

describe("the look-alikes of `<` by rule (src/_lt-look-alikes.ts)", () => {
  it("is the rule applied to the data: confusables of `<`, and Ps/Pi named ANGLE or LESS-THAN", () => {
    const made = new Map<number, string>();
    for (const { code, kind, name } of rows())
      if (kind === "confusable" || /ANGLE|LESS-THAN/.test(name)) made.set(code, name);
    const expected = [...made].sort((a, b) => a[0] - b[0]);
    expect(LT_LOOK_ALIKES.map(([code, name]) => [code, name])).toEqual(expected);
  });

  it("the data names every Ps/Pi code point past ASCII that Node knows, and the six confusables", () => {
    const data = rows();
    const named = new Set(data.filter((r) => r.kind !== "confusable").map((r) => r.code));
    const node: number[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (/^[\p{Ps}\p{Pi}]$/u.test(String.fromCodePoint(c))) node.push(c);
    }
    expect([...named].sort((a, b) => a - b)).toEqual(node);
    expect(data.filter((r) => r.kind === "confusable").map((r) => r.code)).toEqual([
      0x2c2, 0x1438, 0x16b2, 0x2039, 0x276e, 0x1d236,
    ]);
  });
});
