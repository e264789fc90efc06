import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev46c F4 (issue 24): the text `{{#xml}}` levels read again
// was counted, 32 MiB a render and 64 MiB a prompt, but each level reads it
// as Markdown, up to four times when it starts with a blank line and ends
// with a space, at up to 175 ms a MiB for lines of `-`: two sections of
// seven levels around 4 MiB took 10.9 s of CPU at a 3 s deadline. Now the
// counts are 8 MiB a render and 16 MiB a prompt.

const MiB = 1024 * 1024;
const LEVELS = 7;
// 2 MiB of `-` lines: seven levels read 14 MiB, which rendered before.
const dashes = "-\n".repeat(MiB);
const source = `X${'{{#xml "a"}}\n\n'.repeat(LEVELS)}{{t}}${" \n{{/xml}}".repeat(LEVELS)}\n`;

describe("hostile repository: {{#xml}} levels around slow text", () => {
  it(`two sections of ${LEVELS} levels around 2 MiB of "-" lines stop at the re-read count`, async () => {
    const engine = createEngine();
    const work = new PromptWork();
    const { cpuMs, value } = await cpuTimed(() =>
      [0, 1].map(() => {
        try {
          return engine.render(source, { t: dashes }, { work });
        } catch (error) {
          return (error as Error).message;
        }
      }),
    );
    for (const out of value) expect(out).toMatch(/read their text again past 8 MiB/);
    // Before: both rendered, 14 MiB read again each (9.3 s here, loaded); now each stops within
    // 8 MiB: 2.4 s of CPU alone, 4.04 s once in the slow tier with other agents' runs beside it;
    // on the 2026-12-07 machine 5.86 s alone at 9cd004e4 and 6.10 s at idle after that session's
    // fixes (the bound of 6 s failed the slow tier). Reading 14 MiB a section, as before, costs some
    // 14/8 of that by the bytes read (an estimate, 10-11 s here, not measured), so 8.5 s still
    // tells the two apart.
    expect(cpuMs).toBeLessThan(8_500);
  }, 60_000);

  it("three levels around 1 MiB of them still render", () => {
    const three = `{{#xml "a"}}\n\n{{#xml "b"}}\n\n{{#xml "c"}}\n\n{{t}} \n{{/xml}} \n{{/xml}} \n{{/xml}}`;
    const out = createEngine().render(
      three,
      { t: dashes.slice(0, MiB) },
      { work: new PromptWork() },
    );
    expect(out.startsWith("<a>\n")).toBe(true);
    expect(out.length).toBeGreaterThan(MiB);
  });
});
