import { describe, expect, it } from "vitest";
import { escapeXml } from "../../helpers/index.js";
import { createEngine } from "../../src/engine/index.js";

const engine = createEngine();
const render = (source: string, data: unknown = {}) => engine.render(source, data);

describe("escapeXml", () => {
  it("escapes the five special characters once", () => {
    expect(escapeXml(`<a href="x">Tom & 'Jerry' &amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos; &amp;amp;&lt;/a&gt;",
    );
    expect(render("{{escapeXml v}}|{{escapeXml missing}}|{{escapeXml}}", { v: "a<b" })).toBe(
      "a&lt;b||",
    );
  });
});

describe("xml", () => {
  it("wraps a non-blank block in a tag", () => {
    expect(render('{{#xml "rules"}}\n- {{r}}\n{{/xml}}', { r: "{{be nice}}" })).toBe(
      "<rules>\n- {{be nice}}\n</rules>",
    );
  });

  it("renders nothing for a blank block", () => {
    expect(render('{{#xml "rules"}}\n  {{r}}\n{{/xml}}', {})).toBe("");
  });

  it("rejects bad tag names and a missing tag", () => {
    expect(() => render('{{#xml "a b"}}x{{/xml}}')).toThrow(
      'Helper "xml": "a b" is not a valid tag name',
    );
    expect(() => render("{{#xml}}x{{/xml}}")).toThrow(
      'Helper "xml": must be used as a block with a tag name: {{#xml "tag"}}…{{/xml}}',
    );
  });
});
