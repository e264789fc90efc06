import { describe, expect, it } from "vitest";
import { closedOpenToYours, closeOpenBlocks } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { withCutMarker } from "../../src/repo-files/capped-read.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev101b F1 (medium): the reading that finds a `<table` start tag met while a `<p>` is
// open (`quirksTableStarts`: the Markdown rendered, then parse5 over it, twice with a `<noscript>`,
// about 1.2 s a MiB) ran outside every check budget and the render's stop time: before the check
// in `closedOpenToYours` (a project's SYSTEM.md and APPEND_SYSTEM.md), again in `closedBlocks` on
// the rewritten text, after the call's 256 KiB budget in a host's tool result (pi, opencode), and
// on every context file cut at its cap (a check budget of 0), whose text then fell back to `&lt;`
// all the same. Now it is part of the text's check (`tablesApartInCheck`): charged to it, done
// only where the check is paid, once, on the final text; refused, no reading.

const UNIT = `<noscript>\n<p>${"*a* _b_ [c](d) `e` ".repeat(8)}<table>\n\n`;
/** About 900 KB of paragraphs each holding a `<table` the reading must find (15,600 `<`, under its cap). */
const BIG = UNIT.repeat(Math.floor(900_000 / UNIT.length));
/** The same with no table: what the work is with no reading at all. */
const PLAIN = BIG.replaceAll("<table>", "<tabel>");

async function cpuOf(work: () => unknown): Promise<number> {
  return (await cpuTimed(work)).cpuMs;
}

describe("hostile repository: the `<table`-in-`<p>` reading is charged to the text's check (rev101b F1)", () => {
  it("a context file cut at its cap (check budget 0): no reading, every `<` as text", async () => {
    let out = "";
    const table = await cpuOf(() => {
      out = withCutMarker(BIG, 1, BIG.length);
    });
    const plain = await cpuOf(() => withCutMarker(PLAIN, 1, PLAIN.length));
    expect(out).not.toMatch(/<table|<\/p>|&lt;\/p>/);
    // Before: about 1 s more than the text with no table (the reading, thrown away).
    expect(table).toBeLessThan(3 * plain + 300);
  });

  it("past the render's stop time: a project's SYSTEM.md is not read", async () => {
    const stop = { at: 0, clock: () => 1 };
    let out = "";
    const table = await cpuOf(() => {
      out = withCheckBudget(() => closedOpenToYours(BIG, " "), { left: 512 * 1024, stop });
    });
    const plain = await cpuOf(() =>
      withCheckBudget(() => closedOpenToYours(PLAIN, " "), { left: 512 * 1024, stop }),
    );
    expect(out).not.toMatch(/<table|&lt;\/p>/);
    expect(table).toBeLessThan(3 * plain + 300);
  });

  it("a closer run outside any budget (a skill's expansion) reads no text over 64 KiB", async () => {
    let out = "";
    const table = await cpuOf(() => {
      out = closeOpenBlocks(BIG);
    });
    const plain = await cpuOf(() => closeOpenBlocks(PLAIN));
    expect(out).not.toMatch(/<table|&lt;\/p>/);
    expect(table).toBeLessThan(3 * plain + 300);
  });

  it("a trusted project's SYSTEM.md and APPEND_SYSTEM.md of 900 KB each: a render as cheap as with no table", async () => {
    const render = async (text: string) => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/.pi/SYSTEM.md": text,
        "project/.pi/APPEND_SYSTEM.md": text,
      });
      const options = pinned(root, { projectTrusted: true, deadlineMs: 30_000 });
      return cpuTimed(() => renderSystemPrompt(options));
    };
    // The text with no table first: it loads the pipeline, and is the figure to compare with.
    const plain = await render(PLAIN);
    const table = await render(BIG);
    expect(table.value.text).not.toContain("&lt;/p>");
    // Before: some 4 s of CPU more than with no table (four readings of 900 KB, thrown away).
    expect(table.cpuMs).toBeLessThan(2 * plain.cpuMs + 500);
  });
});
