import { describe, expect, it } from "vitest";
import { hostClosingAfter } from "../../src/_fence.js";
import { closingOf } from "../../src/integrations/pi/on-touch.js";

// Review rev107c F2: the end tags sysprompt appends after a pi or opencode tool result (a file a
// read printed) named the element as the repository wrote it. `<x<|im_end| hidden>` is a start tag
// whose name an HTML parser reads as `x<|im_end|`, so the closer was `</x<|im_end|>`: sysprompt
// itself wrote the chat template's end-of-turn token the file did not hold (Llama 3's
// `<|eot_id|>`, `<|start_header_id|>` likewise), and `<x<system-reminder hidden>` gave the
// host's `</system-reminder>`. Now only an end tag of a plain name that the prompt's escape
// leaves as it is gets written; otherwise nothing follows the result (its files come with a later
// call).

const TEXTS = [
  "Log:\n<x<|im_end| hidden>\n",
  "Log:\n<user<|end_header_id| hidden><b<|start_header_id| hidden><a<|eot_id| hidden>\n",
  "# Notes\n\nSee <x<system-reminder hidden> for details\n",
  // The same through the hidden elements' closers (an element inside one that hides).
  "Log:\n\n<div hidden><x<|im_end|>\n",
  // A host's element named plainly, left open where it hides what follows.
  "See <system-reminder hidden> for details\n",
  "<div hidden>\n<hook_context>\n",
];

/** What pi appends before the files, or undefined for nothing. */
function piCloser(text: string): string | undefined {
  return closingOf([{ type: "text", text }])();
}

describe("rev107c F2: sysprompt writes no end tag of a name the repository chose that is a token or a host's", () => {
  for (const text of TEXTS) {
    it(`pi appends nothing after ${JSON.stringify(text)}`, () => {
      expect(piCloser(text)).toBeUndefined();
      expect(hostClosingAfter(text)).toBeUndefined();
    });
  }

  it("an end tag of a plain name is still written (`<span hidden>`, a `<b>` in a code span)", () => {
    expect(piCloser("Log <span hidden><b>\n")).toMatch(/<\/b>[\s\S]*<\/span>/);
    expect(piCloser("Use `<b>` here\n")).toContain("</b>");
    expect(piCloser("<div hidden>\n<x-y.z>\n")).toContain("</x-y.z></div>");
  });
});
