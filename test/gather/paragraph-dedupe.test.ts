import { describe, expect, it } from "vitest";
import { dedupeParagraphs, paragraphMarker } from "../../src/gather/_paragraphs.js";
import { cpuTimed } from "./_timed.js";

const long = (word: string) =>
  `${word} ${"is a paragraph long enough to be worth a marker line. ".repeat(2)}`.trim();

describe("dedupeParagraphs", () => {
  it("a repeated heading goes only with all of its section", () => {
    const a = `## Tests\n\n${long("A")}\n\n## Style\n\n${long("S")}`;
    const b = `# B\n\n## Tests\n\n${long("A")}\n\n## Style\n\n${long("S")}\n\nB's own.\n\n## Tests\n\n${long("A")}\n\nAnd more of B's own.`;
    const [, out] = dedupeParagraphs([
      { label: "a", text: a },
      { label: "b", text: b },
    ]);
    // The first Tests section goes whole; Style keeps its heading for B's own paragraph; the
    // second Tests keeps its heading for the paragraph of B's that follows.
    expect(out).toEqual({
      text: `# B\n\n${paragraphMarker(2, ["a"])}\n\n## Style\n\n${paragraphMarker(1, ["a"])}\n\nB's own.\n\n## Tests\n\n${paragraphMarker(1, ["a"])}\n\nAnd more of B's own.`,
      left: 4,
      statedIn: ["a"],
      whole: false,
    });
  });

  it("fixed sources state paragraphs and are never changed; a source may repeat its own paragraph", () => {
    const p = long("P");
    const out = dedupeParagraphs([
      { label: "the custom prompt", text: `${p}\n\n${p}`, fixed: true },
      { label: "x", text: `${p}\n\n${long("Q")}\n\n${long("Q")}` },
    ]);
    expect(out[0]).toEqual({ text: `${p}\n\n${p}`, left: 0, statedIn: [], whole: false });
    expect(out[1]?.text).toBe(
      `${paragraphMarker(1, ["the custom prompt"])}\n\n${long("Q")}\n\n${long("Q")}`,
    );
  });

  it("an indented first line keeps its indent when the text is rebuilt", () => {
    const [, out] = dedupeParagraphs([
      { label: "a", text: long("A") },
      { label: "b", text: `${long("A")}\n\n    indented code\n    more` },
    ]);
    expect(out?.text).toBe(`${paragraphMarker(1, ["a"])}\n\n    indented code\n    more`);
  });

  it("is linear: 2,500 files of 10 paragraphs, half of them shared, quickly", async () => {
    // As many files as fit in MAX_DEDUPE_LINES (19 lines each), which bounds the work too.
    const sources = Array.from({ length: 2_500 }, (_, i) => ({
      label: `f${i}`,
      text: Array.from({ length: 10 }, (_, k) =>
        k % 2 === 0 ? long(`S${k}`) : long(`F${i}-${k}`),
      ).join("\n\n"),
    }));
    const { value: out, cpuMs, wallMs } = await cpuTimed(() => dedupeParagraphs(sources));
    // A pairwise pass over 25,000 paragraphs (3·10^8 comparisons) takes tens of seconds.
    // CPU time (see cpuTimed): on the clock, at a load of 9, this took 1.3 s.
    expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(5_000);
    expect(out[0]?.left).toBe(0);
    expect(out[2_499]?.left).toBe(5);
  }, 30_000);
});
