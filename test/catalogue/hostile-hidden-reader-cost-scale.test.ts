import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { withoutHidden } from "../../src/sections/user-text.js";
import { cpuMs } from "../_cpu.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev61b: the HTML tree builder that reads what is never shown was bounded by its input
// (1 MiB, 20,000 `<`), not by its work. F1: a few thousand `<b id=N>` left in a reader's list of
// formatting elements are rebuilt for every later paragraph (millions of elements: a heap out of
// memory after 2.5 minutes on 101 KB); F2: a slash template's 4,000 placeholders each walked
// 15,000 open elements (77 s); F4: a regular expression over a 256 KB style took 15 s. Now a
// reading makes at most MAX_HTML_ELEMENTS elements and walks at most MAX_HTML_WORK of them, past
// which the text's markup is read as text, and a style is read one declaration at a time.
function storm(n: number, m: number): string {
  let text = "<div>";
  for (let i = 0; i < n; i++) text += `<b id=${i}>`;
  text += "</div>";
  for (let i = 0; i < m; i++) text += "<div>x</div>";
  return text;
}

describe("hostile repository: the never-shown reader's work is bounded", () => {
  it("F1: formatting elements rebuilt for every paragraph (6,000 x 3,000)", () => {
    const text = storm(6000, 3000);
    expect(cpuMs(() => closeOpenBlocks(text)).ms).toBeLessThan(3000);
    expect(cpuMs(() => withoutHidden(`${text}\n\nYOURS`)).ms).toBeLessThan(3000);
  });

  it("F4: a 256 KB style of `display:` with no `;`", () => {
    const text = `<div style="${"display:".repeat(32_000)}">x</div>\n\nYOURS`;
    const { ms } = cpuMs(() => {
      closeOpenBlocks(text);
      withoutHidden(text);
    });
    expect(ms).toBeLessThan(1500);
  });

  it("F2: a slash template of 15,000 nested elements and 4,000 placeholders", () => {
    const content = `<div hidden></div>\n${'<span style="color:red">'.repeat(15_000)}${" $1 <br>".repeat(4000)}\n`;
    const { ms, result } = cpuMs(() => expandProjectTemplate(content, "/t ARG-WORDS"));
    expect(ms).toBeLessThan(4000);
    expect(result.text).toContain("ARG-WORDS");
  });
});
