// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import { describe, expect, it } from "vitest";
import { expandProjectTemplate, expectMovedOut } from "./_expand-project.js";

// Review rev54a (F3, low): four blanks or a tab before `$ARGUMENTS` in a
// project's template (literal, or from a default `${9:-    }`) made your words
// the project's indented code with no word: `Text:\n\n    $ARGUMENTS` gave
// `/t do NOT touch the DB` as code. Indented code has no closer, so the
// template never "closes it after your words": the blanks end their line and
// your words start one of their own, with an `arguments-hidden` warning.

const WORDS = "do NOT touch the DB";

function expand(content: string) {
  return expandProjectTemplate(content, `/t ${WORDS}`);
}

describe("hostile repository: a template cannot make your arguments indented code", () => {
  it("literal blanks, a tab, blanks from a default: a paragraph and a warning", () => {
    for (const content of [
      "Text:\n\n    $ARGUMENTS\n",
      "    $ARGUMENTS\n",
      "\t$ARGUMENTS\n",
      "Text:\n\n${9:-    }$ARGUMENTS\n",
      "${9:-\t}$ARGUMENTS\n",
      "Text:\n\n${9:-  }${8:-  }$ARGUMENTS\n",
      "Text:\n\n${9:-    x}\n${9:-    }$ARGUMENTS\n",
      "    make\n    $ARGUMENTS\n",
      "- item\n\n      $ARGUMENTS\n",
    ]) {
      expectMovedOut(expand(content), content);
    }
  });

  it("blanks that make no code stay as written: a paragraph's line, inside a fence the template closes", () => {
    for (const content of [
      "Text:\n    $ARGUMENTS\n",
      "   $ARGUMENTS\n",
      "```\n    $ARGUMENTS\n```\n",
    ]) {
      const out = expand(content);
      expect(out.diagnostics, content).toEqual([]);
      expect(out.text, content).toContain(`    ${WORDS}`.slice(content.startsWith("   $") ? 1 : 0));
    }
  });
});
