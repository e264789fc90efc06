import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev68c F8: a trusted project's `.pi/APPEND_SYSTEM.md` ending in a tag whose attribute
// quote never closes (`Build with make. See <a href="docs`) put `</repository_append>`, your
// `--append-system-prompt` text and the start of the next element inside that attribute's value
// for an HTML parser fed the raw prompt (Markdown readers print the line as text: the tag is not
// complete within its paragraph). The closers now write such an unended tag's `<` as `&lt;`.

type Node = DefaultTreeAdapterMap["node"];

/** Where `marker` is in the raw prompt read by an HTML parser: a text node, an attribute, or nowhere. */
function rawPlace(text: string, marker: string): "text" | "attribute" | "none" {
  let place: "text" | "attribute" | "none" = "none";
  const walk = (node: Node) => {
    if (place !== "none") return;
    if (node.nodeName === "#text") {
      if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker)) place = "text";
      return;
    }
    if ("attrs" in node && node.attrs.some((a) => a.value.includes(marker))) place = "attribute";
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : []) walk(child);
  };
  walk(parse(text));
  return place;
}

describe("hostile repository: a repository text ending in an unended tag swallows nothing for a raw HTML reading", () => {
  for (const tail of [
    'See <a href="docs\n',
    "See <a href='docs",
    'See </a title="x',
    "See <instructi",
  ]) {
    it(`an APPEND_SYSTEM.md ending ${JSON.stringify(tail)}: your appended text is text`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/.pi/APPEND_SYSTEM.md": `Build with make. ${tail}`,
      });
      const result = await renderSystemPrompt(
        pinned(root, { projectTrusted: true, appendSystemPrompt: "QZ-APPEND-TEXT: never push\n" }),
      );
      expect(result.text).toContain("QZ-APPEND-TEXT");
      expect(rawPlace(result.text, "QZ-APPEND-TEXT")).toBe("text");
      expect(rawPlace(result.text, "Current working directory")).toBe("text");
    });
  }

  it("--untrusted: an AGENTS.md ending in an unended attribute: the later sections are text", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": 'Build with make. See <a href="docs',
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain('Build with make. See &lt;a href="docs');
    expect(rawPlace(result.text, "Current working directory")).toBe("text");
  });

  it("a text whose tags all end is printed as written", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md":
        "Build with make. See <a href=\"docs\">the docs</a> and <b title='x'>this</b>.",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain(
      "Build with make. See <a href=\"docs\">the docs</a> and <b title='x'>this</b>.",
    );
  });
});
