import { describe, expect, it } from "vitest";
import { placeOf } from "./_commonmark.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev56c (F6, medium): a link reference definition a project's slash
// template spread over lines still swallowed your arguments: `[x]:\n  /u\n
// "$ARGUMENTS"` (label, destination and title each on a line) and `[x]: /u
// "\n$ARGUMENTS\n"` (a title over lines) rendered nothing of them, no word;
// only the placeholder's line and the one before were judged. Now the guard
// reads the definition's lines since its `[` (up to 2 KiB), and a title still
// open at the placeholder's line end counts as holding it: your words start a
// paragraph of their own, with `arguments-hidden`.

const WORDS = "never push to main";

describe("hostile repository: a definition over several lines cannot hold your arguments", () => {
  it("label, destination and title on lines of their own; a title over lines: moved out", () => {
    for (const content of [
      'Review.\n\n[x]:\n  /u\n  "$ARGUMENTS"\n\nTAIL\n',
      'Review.\n\n[x]: /u "\n$ARGUMENTS\n"\n\nTAIL\n',
      "[x]: /u 'a\nb\n$ARGUMENTS'\n",
      "[x]: /u (\nnotes: $ARGUMENTS\n)\n",
      '> [x]:\n>   /u\n>   "$ARGUMENTS"\n',
      '[a]: /a\n[x]:\n/u\n"$ARGUMENTS"\n',
    ]) {
      const out = expandProjectTemplate(content, `/t ${WORDS}`);
      expect(placeOf(out.text, WORDS).block, content).toBe("paragraph");
      expect(
        out.diagnostics.map((d) => [d.code, d.path]),
        content,
      ).toEqual([["arguments-hidden", "/p/.pi/prompts/t.md"]]);
    }
  });

  it("a title closed before them, text after a definition: left as written", () => {
    for (const content of [
      '[x]: /u "a\nb" \n$ARGUMENTS\n',
      "[x]:\n/u\nsee $ARGUMENTS\n",
      '[x]: /u "a\nb" c $ARGUMENTS\n',
    ]) {
      const out = expandProjectTemplate(content, `/t ${WORDS}`);
      expect(out.diagnostics, content).toEqual([]);
      expect(out.text, content).toBe(content.replace("$ARGUMENTS", WORDS));
      expect(placeOf(out.text, WORDS).block, content).toBe("paragraph");
    }
  });
});
