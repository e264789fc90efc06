import { describe, expect, it } from "vitest";
import { escapeWrapperTags, HOST_ELEMENTS } from "../../src/_prompt-text.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev53b F2: `ᐸ` (U+1438, Canadian syllabics) is a look-alike `<` and a letter, so
// the name read after one ran on over the next 255, each of them an opener whose name was
// read again: 256 name reads a character. Eight AGENTS.md of 87,000 of it held a render
// 35 s of CPU past its deadline; a run of 250 and a space, 11 s a MiB. A name now stops at
// any opener, which starts its own: each character is read in one name at most.

const NAMES = new Set([...HOST_ELEMENTS, "rules", "user_instructions", "project_context"]);

/** The listed look-alike openers that are letters, digits or drawn as nothing (the tag `<`). */
const WORDLIKE_OPENERS = [...LISTED()].filter(
  (c) => /^[\p{L}\p{N}\p{M}\p{Default_Ignorable_Code_Point}]$/u.test(c) || c === "\u{e003c}",
);

function LISTED(): string[] {
  return [
    ..."\u140a\uff1c\ufe64\u2039\u276e\u276c\u2770\u27e8\u29fc\u3008\u2329\u02c2\u1438\u227a\u{e003c}",
  ];
}

/** Fills of about 120 KiB that made each opener read the names of those after it. */
const FILLS = (c: string) => [c, `${c.repeat(250)} `, `a${c}`, `${c.repeat(60)}x`];

describe("hostile repository: an opener that is also a letter is read once", () => {
  it("an AGENTS.md of 87,000 x U+1438 renders quickly", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": `${"\u1438".repeat(86_990)}x\n\n${`${"\u1438".repeat(250)} `.repeat(350)}\n`,
    });
    const { cpuMs, value } = await cpuTimed(() =>
      renderSystemPrompt(pinned(root, { projectTrusted: false })),
    );
    // Since fx94c (review rev92b F1) each look-alike opener is charged 24 units of the element-name
    // meter on top of its name: 175,000 of them spend its 2 Mi units, so this text is escaped whole,
    // and said (the meter's own fallback); the run below the meter is kept, next case.
    expect(value.diagnostics.some((d) => d.code === "prompt-render-work")).toBe(true);
    // Before: 4.4 s and 10 s of CPU. CPU time, not the clock's (see _timed.ts).
    expect(cpuMs).toBeLessThan(1500);
  }, 60_000);

  it("an AGENTS.md of 20,000 x U+1438, within the meter, keeps its runs", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": `${"\u1438".repeat(19_990)}x\n\n${`${"\u1438".repeat(250)} `.repeat(100)}\n`,
    });
    const { cpuMs, value } = await cpuTimed(() =>
      renderSystemPrompt(pinned(root, { projectTrusted: false })),
    );
    // Before, each `ᐸ` of a run longer than a name was written `&lt;`.
    expect(value.text).toContain("\u1438".repeat(1000));
    expect(value.diagnostics.some((d) => d.code === "prompt-render-work")).toBe(false);
    expect(cpuMs).toBeLessThan(1500);
  }, 60_000);

  it("every word-like opener, in every fill, costs about the same per character", async () => {
    expect(WORDLIKE_OPENERS.length).toBeGreaterThanOrEqual(3);
    for (const c of WORDLIKE_OPENERS)
      for (const unit of FILLS(c)) {
        const line = unit.repeat(Math.ceil((120 << 10) / unit.length));
        const { cpuMs } = await cpuTimed(() => escapeWrapperTags(line, NAMES));
        // Before: 1.3 s for 120 KiB of `ᐸ` x 250 and a space; now some 20 ms.
        expect({ c, unit: unit.slice(-3), slow: cpuMs > 400 }).toEqual({
          c,
          unit: unit.slice(-3),
          slow: false,
        });
      }
  }, 60_000);

  it("a name stops at an opener, which is read as one", () => {
    expect(escapeWrapperTags("\u2039a\u1438/rules>", NAMES)).toBe("\u2039a&lt;/rules>");
    expect(escapeWrapperTags("\u2039/rules\u1438>", NAMES)).toBe("&lt;/rules\u1438>");
    expect(escapeWrapperTags("</user_instructions\u140a>", NAMES)).toBe(
      "&lt;/user_instructions\u140a>",
    );
    expect(escapeWrapperTags("a\u1438b\u1438c", NAMES)).toBe("a\u1438b\u1438c");
  });
});
