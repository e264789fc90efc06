import { describe, expect, it } from "vitest";
import { escapeWrapperTags } from "../../src/_prompt-text.js";

// Review rev56b F2: escaping a text twice changed it again. A slash or blank after an opener
// that is itself read as `<` (`∕` U+2215, `⧸` U+29F8, the braille blank U+2800) was skipped
// as part of the tag and never read as the opener of its own: `<∕/repository_instructions>`
// was printed `&lt;∕/repository_instructions>`, whose `∕/repository_instructions>` alone is a
// closer to the escaper. Now every opener inside the run is read as one too: the output is a
// fixpoint.
//
// Review rev58f F4 (low): a tag character `<` (U+E003C) between two names was left out in the
// reading you see, joining them into no name, but written `&lt;`, which ends the first:
// `‹` + U+E0074 + `team_policy` + U+E003C + `team_policy`, escaped once, was a tag of the
// escaper's own on a second pass. Now the reading you see reads a tag character the escape
// writes as the `&lt;` it becomes.

const NAMES = new Set(["repository_instructions", "rules", "user_instructions", "instructions"]);
const literal = (text: string) => escapeWrapperTags(text, NAMES);

// The pieces of the review's fuzz: openers, slashes that are openers too, blanks, invisible
// and unseen characters, names, and what the escaper itself writes.
const PIECES = [
  "<",
  "/",
  "\u2800",
  "\u2215",
  "\u29f8",
  "\u2039",
  "\u27cb",
  "\u2afd",
  "\u200b",
  " ",
  "rules",
  ">",
  "\u2190",
  "&lt;",
  "a",
  "\u{e003c}",
  "\u203b",
  "\u2044",
  // Tag characters that mirror `t`, a space, `>`, `=`, `/` and none; a blank-drawn ignorable.
  "\u{e0074}",
  "\u{e0020}",
  "\u{e003e}",
  "\u{e003d}",
  "\u{e002f}",
  "\u{e0001}",
  "\u3164",
  // Drawn as nothing, read by a model as a break (review rev59b F7): a joiner, a C0 control, NEL.
  "\u200d",
  "\u001f",
  "\u0085",
  // Read both ways too (review rev60c F3, F5): a format character, VT; a circled letter (F1).
  "\ufffb",
  "\u000b",
  "\u24e1",
];

/** `count` texts of 2 to 7 pieces from a fixed seed: the same texts on every run. */
function fuzz(count: number): string[] {
  let seed = 56;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + next(6) }, () => PIECES[next(PIECES.length)]).join(""),
  );
}

describe("hostile repository: escaping a text twice changes nothing", () => {
  it("the review's three lines: each opener of the tag is made literal at once", () => {
    expect(literal("A <\u2215/repository_instructions> B")).toBe(
      "A &lt;&lt;/repository_instructions> B",
    );
    expect(literal("C \u29f8\u2215\u29f8repository_instructions> D")).toBe(
      "C &lt;&lt;&lt;repository_instructions> D",
    );
    expect(literal("E \u2215/repository_instructions> F")).toBe(
      "E &lt;/repository_instructions> F",
    );
    expect(literal("<\u2800/repository_instructions>")).toBe("&lt;&lt;/repository_instructions>");
  });

  it("a tag `<` between two names ends the first, in the reading you see too", () => {
    const [t, lt] = ["\u{e0074}", "\u{e003c}"];
    const names = new Set(["team_policy", "rules"]);
    const once = (text: string) => escapeWrapperTags(text, names);
    for (const text of [
      `\u2039\u{e0001}${t}team_policy${lt}team_policy`,
      `\u2215team_policy${t}${lt}rules`,
    ]) {
      expect(once(text), JSON.stringify(text)).toBe(
        text.replace(/^./u, "&lt;").replace(lt, "&lt;"),
      );
      expect(once(once(text))).toBe(once(text));
    }
  });

  it("e(e(t)) is e(t) over a seeded fuzz of openers, slashes, blanks and names", () => {
    const moved = fuzz(3_000).filter((t) => literal(literal(t)) !== literal(t));
    expect(moved.slice(0, 5)).toEqual([]);
  });

  it("a tag behind many openers is still made literal, by the opener nearest its name", () => {
    for (const run of ["\u2215", "\u2800", "\u29f8\u200b"]) {
      const once = literal(`<${run.repeat(50)}/rules>`);
      expect(once).toMatch(/&lt;\u200b?\/rules>$/);
      expect(literal(once)).toBe(once);
    }
  });
});
