import { describe, expect, it } from "vitest";
import { escapeWrapperTags } from "../../src/_prompt-text.js";

// Review rev60c F1 (medium), every code point: one whose compatibility form
// (NFKC) is ASCII name characters reads as them inside a tag's name, whatever
// its category. The review's sweep found 33 letters of the symbol category
// (circled, squared, outlined) and the CJK squared units (`㏌` is `in`) read as
// openers that ended the name. A scale case: NFKC of every code point, ~1 s.

/** Every code point whose NFKC form differs from it and is ASCII name characters. */
function compatibleNamePoints(): { code: number; chars: string }[] {
  const out: { code: number; chars: string }[] = [];
  for (let code = 0x80; code < 0x110000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const c = String.fromCodePoint(code);
    const chars = c.normalize("NFKC");
    if (chars !== c && /^[A-Za-z0-9_.:-]+$/.test(chars)) out.push({ code, chars });
  }
  return out;
}

describe("hostile repository: every compatibility spelling of a name's characters", () => {
  it("inside a name, each is read as the characters it stands for", () => {
    const points = compatibleNamePoints();
    // The circled and squared Latin letters and the CJK squared units among them (symbols, So).
    for (const code of [0x24e1, 0x1f141, 0x1f12c, 0x33cc, 0x33b1])
      expect(points.map((p) => p.code)).toContain(code);
    const raw: string[] = [];
    for (const { code, chars } of points) {
      const c = String.fromCodePoint(code);
      const names = new Set([`ab${chars.toLowerCase()}cd`]);
      for (const tag of [`</ab${c}cd>`, `<ab${c}cd path="x">`])
        if (escapeWrapperTags(tag, names) !== `&lt;${tag.slice(1)}`)
          raw.push(`U+${code.toString(16)} ${tag}`);
    }
    expect(raw).toEqual([]);
  });
});
