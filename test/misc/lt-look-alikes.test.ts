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
    const data = rows();
    // Each opener's closer (review rev93h F4): the Pe/Pf named as it with RIGHT, GREATER-THAN.
    const closers = new Map(
      data.filter((r) => r.kind === "Pe" || r.kind === "Pf").map((r) => [r.name, r.code]),
    );
    const closerOf = (name: string) =>
      closers.get(name.replaceAll("LEFT", "RIGHT").replaceAll("LESS-THAN", "GREATER-THAN")) ?? 0;
    const made = new Map<number, [string, string]>();
    for (const { code, kind, name } of data) {
      if (kind === "Pe" || kind === "Pf") continue;
      // A confusable that is a bracket too is listed once, as a confusable.
      if (made.get(code)?.[1] === "confusable") continue;
      if (kind === "confusable" || /ANGLE|LESS-THAN/.test(name)) made.set(code, [name, kind]);
    }
    const expected = [...made]
      .sort((a, b) => a[0] - b[0])
      .map(([code, [name, kind]]) => [code, name, kind, closerOf(name)]);
    expect(LT_LOOK_ALIKES.map((row) => [...row])).toEqual(expected);
    // `《》` `«»` `⟪⟫`: every Ps/Pi opener has its closer.
    for (const [code, name, kind, closer] of LT_LOOK_ALIKES)
      if (kind !== "confusable") expect(closer, `${code.toString(16)} ${name}`).not.toBe(0);
  });

  it("the data names every Ps/Pi/Pe/Pf code point past ASCII that Node knows, and the six confusables", () => {
    const data = rows();
    const named = new Set(data.filter((r) => r.kind !== "confusable").map((r) => r.code));
    const node: number[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (/^[\p{Ps}\p{Pi}\p{Pe}\p{Pf}]$/u.test(String.fromCodePoint(c))) node.push(c);
    }
    expect([...named].sort((a, b) => a - b)).toEqual(node);
    expect(data.filter((r) => r.kind === "confusable").map((r) => r.code)).toEqual([
      0x2c2, 0x1438, 0x16b2, 0x2039, 0x276e, 0x1d236,
    ]);
  });
});
