import { describe, expect, it } from "vitest";
import { withoutHidden } from "../../src/sections/user-text.js";
import { cpuTimed } from "../gather/_timed.js";

// rev52b F12's reading of what an HTML reader never shows (`withoutHidden`) runs
// on a project's section and on the whole prompt: its openers never closed
// (`<?` a thousand times with no `?>`) must not each look to the end of the
// text again. 4 MB of each worst unit, linear: well under a second of CPU each
// (a look to the end per opener would be some 10^12 steps).

const UNITS = [
  "<?",
  "<script ",
  "<!x",
  "<![CDATA[",
  "<!--x-->",
  "<script></script",
  "<SCRIPT>a</Script",
  // rev57b F3/F5: start tags read as HTML reads them, never ended, ended inside a quote, each one hidden.
  '<a x="',
  "<a x='<b y=\"",
  "<a ",
  '<div title=">" hidden>',
  '<span title="x">y',
];

describe("hostile repository: reading past what is never shown is linear", () => {
  for (const unit of UNITS) {
    it(`4 MB of ${JSON.stringify(unit)}`, async () => {
      const text = unit.repeat(Math.ceil(4_000_000 / unit.length));
      const { cpuMs, value } = await cpuTimed(() => withoutHidden(text));
      expect(value.length).toBeLessThanOrEqual(text.length);
      expect(cpuMs).toBeLessThan(2_000);
    });
  }
  it("reads each form as a reader does", () => {
    expect(withoutHidden("a<!-- b -->c<?d?>e<![CDATA[f]]>g<!H i>j<script x>k</script >l")).toBe(
      "acegjl",
    );
    expect(withoutHidden("a <?php never closed\nb")).toBe("a <?php never closed\nb");
    // Mid-line and never closed in its paragraph, CommonMark prints it as text.
    expect(withoutHidden("a <!-- open\nb")).toBe("a <!-- open\nb");
    expect(withoutHidden("<!-- open\nb")).toBe("");
    expect(withoutHidden("<pre>shown</pre><scripts>shown too")).toBe(
      "<pre>shown</pre><scripts>shown too",
    );
  });
});
