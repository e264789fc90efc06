import { describe, expect, it } from "vitest";
import { expandPromptTemplateResult } from "../../src/prompt-templates/expand.js";
import { cpuTimed } from "../gather/_timed.js";

// fx101g (recorded in docs/trust.md): the slash template's `<table`-in-`<p>` reading
// (`quirksTableStarts` in src/prompt-templates/expand.ts: the expansion rendered, then parse5
// over it, again with CommonMark's reading and with scripts off) ran outside every check budget,
// so a project's prompt template of 900 KB of paragraphs each ending in a `<table>` cost some
// 2.5 s of CPU more than the same text with no table, in `sysprompt expand`, a slash command or
// pi's expansion, past any deadline. Now it is a paid check ({@link paidCheck}) of its own: outside
// a scope an expansion over 64 KiB with a table start of the template's is not read, and every
// `<` of the template is written `&lt;` (the closers' fallback), your words as you typed them.

const UNIT = `noscript <? <? ${"w ".repeat(60)}<table>\n\n`;
/** About 900 KB of paragraphs, each with a `<table` the reading must judge. */
const BIG = UNIT.repeat(Math.floor(900_000 / UNIT.length));
/** The same with no table: the guard's work, no reading. */
const PLAIN = BIG.replaceAll("<table>", "<tabel>");

function expand(body: string) {
  return expandPromptTemplateResult("/x <b>mine</b>", [
    { name: "x", content: `${body}\n$ARGUMENTS\n`, source: "project" },
  ]);
}

describe("hostile project template: the `<table`-in-`<p>` reading is charged to a check (fx101g)", () => {
  it("a template of 900 KB of `<p>`s and `<table>`s costs what one with no table does", async () => {
    expand("warm <table>\n$ARGUMENTS");
    const plain = await cpuTimed(() => expand(PLAIN));
    const table = await cpuTimed(() => expand(BIG));
    const { text, diagnostics } = table.value;
    // Before: 3-4x the text with no table (the reading of 900 KB, twice rendered and parsed: 4.1 s
    // against 1.2 s on a loaded machine); after, the guard's second pass on the text: 1.3-1.5x.
    expect(table.cpuMs).toBeLessThan(2 * plain.cpuMs + 500);
    // Refused: the template's markup as text, said; yours as you typed it.
    expect(text).not.toMatch(/<table|<\?/);
    expect(text).toContain("<b>mine</b>");
    expect(diagnostics.map((d) => d.code)).toContain("arguments-hidden");
  });

  it("a small template's table is still read: a `</p>` before it", () => {
    const { text } = expand("<p>Review $ARGUMENTS <table><tr><td>x</td></tr></table>");
    expect(text).toMatch(/<\/p><table/);
    expect(text).toContain("<b>mine</b>");
  });
});
