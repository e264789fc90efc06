import { HtmlRenderer, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse } from "parse5";

type Node = DefaultTreeAdapterMap["node"];

/** Elements that act on the whole page wherever a document holds them (rev80c F5, F7, F8). */
const PAGE_WIDE = ["style", "link", "base", "meta", "frameset", "frame"];

/**
 * What acts on the whole page when `html` is read as a DOCUMENT (parse5's
 * `parse`, as a browser or a document parser reads the prompt), independent of
 * sysprompt's own readings (every one a fragment parse): an attribute a
 * `<body …>` or `<html …>` start tag gave the page's own body or html (F4),
 * each element of {@link PAGE_WIDE}, and a `<template>` with a
 * `shadowrootmode`/`shadowroot` attribute (a declarative shadow root: its
 * parent draws none of its other content, F6; parse5 does not attach it).
 * Empty when nothing does.
 */
export function pageWide(html: string): string[] {
  const found: string[] = [];
  const walk = (node: Node) => {
    if ("tagName" in node) {
      const attrs = node.attrs.map((a) => a.name);
      if ((node.tagName === "html" || node.tagName === "body") && attrs.length > 0)
        found.push(`${node.tagName}[${attrs.join(",")}]`);
      if (PAGE_WIDE.includes(node.tagName)) found.push(node.tagName);
      if (node.tagName === "template" && attrs.some((a) => a.startsWith("shadowroot")))
        found.push("template[shadowroot]");
    }
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : []) walk(child);
    const content = (node as { content?: Node }).content;
    if (content !== undefined) walk(content);
  };
  walk(parse(html));
  return found;
}

/** {@link pageWide} of the prompt read raw and of the HTML CommonMark makes of it. */
export function pageWideReadings(markdown: string): { raw: string[]; commonmark: string[] } {
  const cm = new HtmlRenderer().render(new Parser().parse(markdown));
  return { raw: pageWide(markdown), commonmark: pageWide(cm) };
}
