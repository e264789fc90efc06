import { type DefaultTreeAdapterMap, parseFragment } from "parse5";
import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { unendedMarkupAt } from "../../src/sections/html-reading.js";

// Review rev72e (F1, F2): `unendedMarkupAt` read against parse5 over random texts of tag internals
// and of comments, CDATA and declarations. What the prompt prints after a text it reads as ended is
// in a text node for parse5; over tag internals the two agree exactly. Some 1 s: the slow tier.

type Node = DefaultTreeAdapterMap["node"];

/** Whether `probe` is in a text node of parse5's reading of `html`. */
function inText(html: string, probe: string): boolean {
  const walk = (node: Node): boolean => {
    if (node.nodeName === "#text")
      return (node as DefaultTreeAdapterMap["textNode"]).value.includes(probe);
    if (node.nodeName === "template")
      return walk((node as DefaultTreeAdapterMap["template"]).content as unknown as Node);
    return ("childNodes" in node ? (node.childNodes as Node[]) : []).some(walk);
  };
  return walk(parseFragment(html) as unknown as Node);
}

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function texts(alphabet: readonly string[], count: number, seed: number): string[] {
  const next = random(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = "x ";
    const length = 1 + Math.floor(next() * 9);
    for (let k = 0; k < length; k++) text += alphabet[Math.floor(next() * alphabet.length)];
    out.push(text);
  }
  return out;
}

describe("unendedMarkupAt against parse5 (rev72e F1, F2)", () => {
  it("a text `unendedMarkupAt` reads as ended leaves parse5 in a data state", () => {
    // Over tag internals it is exact; over comments, CDATA and declarations it may only find more.
    const tags = ["<b", " ", "=", '"', "'", ">", "/", "x", "</b", "\n"];
    for (const text of texts(tags, 20_000, 72)) {
      const shown = inText(`${text}PROBEX`, "PROBEX");
      expect(unendedMarkupAt(text) === -1, text).toBe(shown);
    }
    const markup = [
      "<",
      "b",
      " ",
      "=",
      '"',
      ">",
      "/",
      "!",
      "--",
      "-",
      "<svg>",
      "</svg>",
      "<math>",
      "<![CDATA[",
      "]]>",
      "<!--",
      "-->",
      "--!>",
      "?",
      "]",
      "<title a",
    ];
    for (const text of texts(markup, 20_000, 73)) {
      if (unendedMarkupAt(text) === -1) expect(inText(`${text}PROBEX`, "PROBEX"), text).toBe(true);
    }
    // And the closed text: what the prompt prints after it is in a text node.
    for (const text of texts(markup, 300, 74))
      expect(inText(`${closeOpenBlocks(text)}PROBEX`, "PROBEX"), text).toBe(true);
  });

  it("raw-text elements are read to their end tags, as the tokenizer reads them (rev89f F1)", () => {
    // A `<!--` in `<style>` or `<script>` opened a comment to the linear reader that ran over the
    // element's end tag and a tag after it; in `<svg>` or `<select>` the tree may read it as markup.
    const raw = [
      "<style>",
      "</style>",
      "<script>",
      "</script>",
      "<textarea>",
      "</textarea>",
      "<title>",
      "</title>",
      "<!--",
      "-->",
      "-",
      "<a href='",
      "'",
      ">",
      "<",
      "/",
      "x",
      "<svg>",
      "</svg>",
      "<select>",
    ];
    for (const text of texts(raw, 20_000, 89)) {
      if (unendedMarkupAt(text) === -1) expect(inText(`${text}PROBEX`, "PROBEX"), text).toBe(true);
    }
  });
});
