// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import { describe, expect, it } from "vitest";
import { expandProjectTemplate, expectMovedOut } from "./_expand-project.js";

// Review rev54a (F2, low): the link reference definition guard (rev52a F2)
// judged a placeholder's line with the template's RAW text after it, so a
// definition closed by a later placeholder's default hid your words with no
// word: `[//]: # ${9:-(}$ARGUMENTS${9:-)}` printed `[//]: # (do NOT …)`.
// Now the rest of the line is judged as it prints, each later placeholder at
// its value in this expansion.

const WORDS = "do NOT touch the DB";

function expand(content: string) {
  return expandProjectTemplate(content, `/t ${WORDS}`);
}

describe("hostile repository: a definition closed by a later default cannot hide your arguments", () => {
  it("label, title, comment form: a paragraph of their own and a warning", () => {
    for (const content of [
      "[//]: # ${9:-(}$ARGUMENTS${9:-)}\n",
      '[a]: /u ${9:-"}$ARGUMENTS${9:-"}\n',
      "${9:-[}$ARGUMENTS${9:-]: /u}\n",
      "[$ARGUMENTS${9:-]: /u}\n",
      // The closer in a default that goes on to a new line: only its first line counts.
      "[//]: # ($ARGUMENTS${9:-)\nmore text}\n",
      // The closer after a second placeholder that is your words too.
      "[//]: # ($1 $2 $3 $4 $5${9:-)}\n",
    ]) {
      expectMovedOut(expand(content), content);
    }
  });

  it("a later default that spoils the definition leaves it a paragraph's line", () => {
    for (const content of ["[x]: /u '$ARGUMENTS' ${9:-more}\n", "[//]: # ($ARGUMENTS${9:-) x}\n"]) {
      const out = expand(content);
      expect(out.diagnostics, content).toEqual([]);
      expect(out.text, content).toContain(WORDS);
    }
  });
});
