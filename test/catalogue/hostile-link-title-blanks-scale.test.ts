import { describe, expect, it } from "vitest";
import { closeOpenBlocksOnOwnLine } from "../../src/_fence.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { cpuTimed } from "../gather/_timed.js";

// Found by the audit of rev68b F1's class (every regular expression run on repository text):
// a context file or rule printed by a template is checked for a link reference definition
// whose title is left open at its end (rev58c F4). That check's regex read the blanks around
// the destination as `[ \t]*\n?[ \t]*`, which splits one run of blanks every way when the match
// fails: a last line `[a]: x` + 20,000 blanks + `y` cost 5.8 s, `[a]:` + 20,000 blanks 0.6 s.
// It now reads `[ \t]*(?:\n[ \t]*)?`: one way. Here 30,000 blanks (10-20 s before).
const BLANKS = " ".repeat(30_000);

describe("hostile repository: a link definition's blanks are read in linear time", () => {
  // The third text's last line is indented by 30,000 blanks: a text ending in a line so indented
  // ends with a line break, so words printed after it start their own line (rev82c F1, decided:
  // indented code or a paragraph's continuation alike, where the break is harmless).
  for (const [what, text, added] of [
    ["blanks after the destination", `Notes.\n\n[a]: x${BLANKS}y`, ""],
    ["blanks before the destination", `Notes.\n\n[a]:${BLANKS}x`, ""],
    ["blanks, a line break, blanks", `Notes.\n\n[a]: x${BLANKS}\n${BLANKS}y`, "\n"],
  ] as const) {
    it(`${what}: under 0.5 s, nothing added but a last line break`, async () => {
      const { cpuMs, value } = await cpuTimed(() =>
        withCheckBudget(() => closeOpenBlocksOnOwnLine(text)),
      );
      expect(cpuMs).toBeLessThan(500);
      expect(value).toBe(text + added);
    });
  }

  it("a title still open at the end still gets its blank line", () => {
    expect(closeOpenBlocksOnOwnLine('Notes.\n\n[a]: x\n  "open title')).toBe(
      'Notes.\n\n[a]: x\n  "open title\n\n',
    );
  });
});
