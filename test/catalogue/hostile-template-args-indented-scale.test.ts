// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import { describe, expect, it } from "vitest";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev54a (F3): blanks before your words are judged again while their
// line stays blanks; each blank is read a bounded number of times, and the
// warning's line counter finds each template line's end once (50,000 breaks
// on one template line took 5 s when it looked for the end at each; about
// 0.8 s each now, 2.5 s leaves room for a loaded machine).

const BLANKS = "${9:- }".repeat(200_000);

function expand(content: string) {
  return expandProjectTemplate(content, "/t do NOT touch the DB");
}

describe("hostile repository: blanks before your arguments, linear", () => {
  it("linear: 200,000 blank defaults on one line, in a paragraph, in a fence the template closes", () => {
    for (const content of [
      `${BLANKS}$ARGUMENTS\n`,
      `Text\n${BLANKS}$ARGUMENTS\n`,
      `\`\`\`\n${BLANKS}$ARGUMENTS\n\`\`\`\n`,
    ]) {
      const started = performance.now();
      expand(content);
      expect(performance.now() - started).toBeLessThan(2500);
    }
  });
});
