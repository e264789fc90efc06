// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import { describe, expect, it } from "vitest";
import { cpuTimed } from "../gather/_timed.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev54a (F3): blanks before your words are judged again while their
// line stays blanks; each blank is read a bounded number of times, and the
// warning's line counter finds each template line's end once (50,000 breaks
// on one template line took 5 s when it looked for the end at each). The bound
// is on CPU time, 0.5-0.6 s a shape here (the clock said up to 1.6 s at a load
// of 7, against the same 2.5 s); CI machines are up to 2x slower.

const BLANKS = "${9:- }".repeat(200_000);

function expand(content: string) {
  return expandProjectTemplate(content, "/t do NOT touch the DB");
}

describe("hostile repository: blanks before your arguments, linear", () => {
  it("linear: 200,000 blank defaults on one line, in a paragraph, in a fence the template closes", async () => {
    for (const content of [
      `${BLANKS}$ARGUMENTS\n`,
      `Text\n${BLANKS}$ARGUMENTS\n`,
      `\`\`\`\n${BLANKS}$ARGUMENTS\n\`\`\`\n`,
    ]) {
      const { cpuMs, wallMs } = await cpuTimed(() => expand(content));
      expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(2500);
    }
  });
});
