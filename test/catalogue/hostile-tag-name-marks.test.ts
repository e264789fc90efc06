import { describe, expect, it } from "vitest";
import { escapeWrapperTags, MAX_TAG_NAME, wrapperNames } from "../../src/_prompt-text.js";
import { cpuMs } from "../_cpu.js";

// Review rev47b F3 (high). The escaper reads a tag's name on through the
// characters a reader does not see, combining marks among them, and folded
// the whole name with `normalize("NFC")`, whose canonical reordering costs a
// run of marks of two alternating classes (U+0301 class 230, U+0316 class
// 220) its length squared. A repository's AGENTS.md holding `</a` and
// 130,000 such marks cost 5 s of CPU; 8 nested ones 38 s at a 3 s deadline,
// `--untrusted` too; a template's closer of 262,144 marks 18.9 s of a
// render's `wrapperNames`. Now a name is read for at most MAX_TAG_NAME
// (256) UTF-16 units: one that runs on past it is made literal unread, and a
// template's longer name gives none.

const MARKS = "\u0301\u0316".repeat(40_000);

describe("hostile repository: a tag name of combining marks costs its length, not its square", () => {
  it("an AGENTS.md text's `</a` + 80,000 alternating marks is made literal in one pass", () => {
    const text = `Notes.\n\n</a${MARKS}>\n`;
    const { result, ms } = cpuMs(() => escapeWrapperTags(text, new Set(["rules"])));
    // Before: about 1.5 s of CPU (2.5 s for 100,000 marks); now a few milliseconds.
    expect(ms).toBeLessThan(400);
    expect(result).toBe(`Notes.\n\n&lt;/a${MARKS}>\n`);
  });

  it("a template's closer of 80,000 marks gives no name, in one pass", () => {
    const body = `Ours: </a${MARKS}> and </team_policy>`;
    const { result, ms } = cpuMs(() => wrapperNames([{ name: "s", meta: {}, body }]));
    expect(ms).toBeLessThan(400);
    expect(result.has("team_policy")).toBe(true);
    expect([...result].every((n) => n.length <= MAX_TAG_NAME)).toBe(true);
  });

  it("a name up to the bound is read as before; one past it is made literal, whatever it hides", () => {
    const names = new Set(["rules"]);
    const long = "x".repeat(MAX_TAG_NAME);
    // 256 units of a name that is none of ours: as written.
    expect(escapeWrapperTags(`<${long}>`, names)).toBe(`<${long}>`);
    expect(escapeWrapperTags(`</${long} a`, names)).toBe(`</${long} a`);
    // One more unit: not read on, made literal.
    expect(escapeWrapperTags(`<${long}y>`, names)).toBe(`&lt;${long}y>`);
    // `</rules>` with 300 invisible characters inside its name reads as `</rules>`.
    const hidden = `</ru${"\u200b".repeat(300)}les>`;
    expect(escapeWrapperTags(hidden, names)).toBe(`&lt;${hidden.slice(1)}`);
    // Marks after a name still fold: `</rules` and 20 marks is `</rules>`.
    expect(escapeWrapperTags(`</rules${"\u0301\u0316".repeat(10)}>`, names)).toMatch(/^&lt;/);
  });
});
