import { describe, expect, it } from "vitest";
import { withoutHidden } from "../../src/sections/user-text.js";

// Review rev56c F5 (low): `<dialog>` (not open), `style="display:none"`,
// `<details>`, `<svg>`, `<video>`/`<audio>`/`<object>` fallback wrapped your
// text with no `user-text-left-out`: no HTML reader shows them by default.
// They are now among what withoutHidden reads as never shown. `<noscript>`,
// `<dialog open>`, `aria-hidden` and a style that hides nothing are shown.

const YOURS = "USER-SECTION-MARKER line one.";

describe("hostile repository: more elements no reader shows hide your text", () => {
  it("dialog, display:none, visibility:hidden, details, svg, video, audio, object", () => {
    for (const text of [
      `<dialog>\n\n${YOURS}\n\n</dialog>`,
      `<dialog class="x">${YOURS}</dialog>`,
      `<div style="display:none">\n\n${YOURS}\n\n</div>`,
      `<span STYLE = "color: red; Display : None">${YOURS}</span>`,
      `<p style='visibility:hidden'>${YOURS}</p>`,
      `<details>\n<summary>Notes</summary>\n\n${YOURS}\n\n</details>`,
      `<svg>${YOURS}</svg>`,
      `<video src="a.mp4">${YOURS}</video>`,
      `<audio>${YOURS}</audio>`,
      `<object data="x">${YOURS}</object>`,
    ]) {
      expect(withoutHidden(`PROJ ${text} replaced`), text).not.toContain(YOURS);
    }
  });

  it("shown: noscript, an open dialog, aria-hidden, a style that hides nothing", () => {
    for (const text of [
      `<noscript>${YOURS}</noscript>`,
      `<dialog open>${YOURS}</dialog>`,
      `<div aria-hidden="true">${YOURS}</div>`,
      `<div style="color: red">${YOURS} display: none</div>`,
      `<div data-display="none">${YOURS}</div>`,
    ]) {
      expect(withoutHidden(text), text).toContain(YOURS);
    }
  });
});
