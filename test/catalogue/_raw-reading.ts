import { HtmlRenderer, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse, parseFragment } from "parse5";
import { expect } from "vitest";

type Node = DefaultTreeAdapterMap["node"];

/** Elements whose text no reader shows, besides any with a `hidden` attribute. */
const HIDING = ["details", "template", "script", "style", "title", "textarea"];

/**
 * Whether an HTML parser fed `text` raw (parse5, a whole document) puts
 * `marker`'s text node under an element that hides it; undefined when the
 * marker is in no text node. The test oracle of the raw reading (rev68c F8's
 * threat model), independent of sysprompt's own `rawHidingTags`.
 */
export function rawHidden(text: string, marker: string): boolean | undefined {
  let found: boolean | undefined;
  const walk = (node: Node, hidden: boolean) => {
    if (found !== undefined) return;
    if (node.nodeName === "#text") {
      if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker)) found = hidden;
      return;
    }
    const hides =
      hidden ||
      ("tagName" in node &&
        (node.attrs.some((a) => a.name === "hidden") || HIDING.includes(node.tagName)));
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : []) walk(child, hides);
    const content = (node as { content?: Node }).content;
    if (content !== undefined) walk(content, hides);
  };
  walk(parse(text), false);
  return found;
}

/** HTML's formatting elements (the list of active formatting elements' names). */
const FORMATTING = new Set([
  "a",
  "b",
  "big",
  "code",
  "em",
  "font",
  "i",
  "nobr",
  "s",
  "small",
  "strike",
  "strong",
  "tt",
  "u",
]);

/**
 * The formatting elements around `marker`'s text node for parse5 fed `text`
 * raw; undefined when the marker is in no text node. The oracle of the raw
 * reading's formatting elements (reviews rev78c F2, rev80c F1), independent of
 * sysprompt's own list.
 */
export function rawFormattingAround(text: string, marker: string): string[] | undefined {
  let found: string[] | undefined;
  const walk = (node: Node, around: string[]) => {
    if (found !== undefined) return;
    if (node.nodeName === "#text") {
      if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker)) found = around;
      return;
    }
    const next =
      "tagName" in node && FORMATTING.has(node.tagName) ? [...around, node.tagName] : around;
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : []) walk(child, next);
    const content = (node as { content?: Node }).content;
    if (content !== undefined) walk(content, next);
  };
  walk(parse(text), []);
  return found;
}

/** Each of `markers` sits in no formatting element for a raw reader of `text`. */
export function expectRawPlain(text: string, markers: readonly string[], name: string): void {
  for (const marker of markers)
    expect(rawFormattingAround(text, marker), `${name}: ${marker}`).toEqual([]);
}

/** The element names around the first text node holding `needle` in parse5's reading of `html` (undefined: in none). */
export function elementChain(html: string, needle: string): string[] | undefined {
  const walk = (node: Node, names: string[]): string[] | undefined => {
    if (node.nodeName === "#text")
      return (node as DefaultTreeAdapterMap["textNode"]).value.includes(needle) ? names : undefined;
    const inner =
      "tagName" in node ? [...names, (node as DefaultTreeAdapterMap["element"]).tagName] : names;
    const content = (node as { content?: Node }).content;
    for (const child of content !== undefined
      ? [content]
      : "childNodes" in node
        ? (node.childNodes as Node[])
        : []) {
      const found = walk(child, inner);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(parseFragment(html) as unknown as Node, []);
}

/** Every element around `marker`'s first text node for parse5 fed `text` raw (a whole document: `html`, `head`, `body` left out); undefined when in no text node. */
export function rawElementsAround(text: string, marker: string): string[] | undefined {
  return elementsAround(parse(text) as unknown as Node, marker);
}

function elementsAround(root: Node, marker: string): string[] | undefined {
  let found: string[] | undefined;
  const walk = (node: Node, around: string[]) => {
    if (found !== undefined) return;
    if (node.nodeName === "#text") {
      if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker)) found = around;
      return;
    }
    const name = "tagName" in node ? node.tagName : undefined;
    const next =
      name === undefined || name === "html" || name === "body" ? around : [...around, name];
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : []) walk(child, next);
    const content = (node as { content?: Node }).content;
    if (content !== undefined) walk(content, next);
  };
  walk(root, []);
  return found;
}

/** Every element around `marker` for a Markdown reader: CommonMark's reference renderer, its HTML fed to parse5. */
export function commonmarkElementsAround(text: string, marker: string): string[] | undefined {
  const html = new HtmlRenderer().render(new Parser().parse(text));
  return elementsAround(parse(html) as unknown as Node, marker);
}

/** None of `names` is around any of `markers` for a raw HTML reader of `text`, nor (`markdown`) for a CommonMark reader. */
export function expectOutside(
  text: string,
  markers: readonly string[],
  names: readonly string[],
  markdown = false,
): void {
  for (const marker of markers) {
    const raw = rawElementsAround(text, marker);
    expect(raw, `raw: ${marker}`).toBeDefined();
    expect(
      raw?.filter((n) => names.includes(n)),
      `raw: ${marker} in ${raw?.join(">")}`,
    ).toEqual([]);
    if (!markdown) continue;
    const read = commonmarkElementsAround(text, marker);
    expect(read, `commonmark: ${marker}`).toBeDefined();
    expect(
      read?.filter((n) => names.includes(n)),
      `commonmark: ${marker} in ${read?.join(">")}`,
    ).toEqual([]);
  }
}
