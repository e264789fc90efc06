import { HtmlRenderer, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse, parseFragment } from "parse5";

// The differential oracle for sysprompt's three readers of "never shown" (closeOpenBlocks'
// closers, withoutHidden, the slash-template guard): CommonMark's reference renderer turns the
// Markdown into HTML, parse5 (a real HTML tree builder) parses that HTML as a `<div>`'s content,
// and a text is never shown when an element above it is never shown, or when it is in no text
// node at all (a comment, an attribute value, a tag never ended). A test helper, not shipped.

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** Where the marker lands: in a shown text node, a hidden one, or in none (comment, attribute, swallowed). */
export type Verdict = "shown" | "hidden" | "absent";

/** A verdict with why: the hiding elements above the marker, or where it went when in no text node. */
export interface OracleReading {
  verdict: Verdict;
  /** Hidden: the elements that hide it, outermost first (`div[hidden]`, `template`). Absent: `comment`, `attribute` or `nowhere`. */
  why: string[];
}

/**
 * Elements whose content no reader shows by default: the list sysprompt decided on
 * (DATA_ELEMENTS in src/sections/user-text.ts), written again here so the oracle does not
 * read the code it judges. `<noscript>` is shown (decided: most Markdown viewers run no
 * script); both scripting readings are taken (see {@link oracleReading}).
 */
const NEVER_SHOWN = new Set([
  "script",
  "style",
  "template",
  "title",
  "noembed",
  "noframes",
  "iframe",
  "details",
  "svg",
  "video",
  "audio",
  "object",
  "canvas",
  "datalist",
  "progress",
  "meter",
  "rp",
]);

/** `display: none`, `visibility: hidden|collapse`, or either through a custom property: the project's decided reading of a hiding style. */
const HIDING_STYLE =
  /display\s*:\s*(?:none|[^;]*var\s*\()|visibility\s*:\s*(?:hidden|collapse|[^;]*var\s*\()/;

function cssText(style: string): string {
  return style
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "")
    .replace(/\\([0-9a-f]{1,6})[ \t\n\r\f]?/gi, (_, hex: string) =>
      String.fromCodePoint(Math.min(Number.parseInt(hex, 16) || 0xfffd, 0x10ffff)),
    )
    .replace(/\\(.)/g, "$1")
    .toLowerCase();
}

/** Why `element` never shows its content, or undefined when it may. */
function hidingReason(element: Element): string | undefined {
  const name = element.tagName;
  const attrs = new Map(element.attrs.map((a) => [a.name, a.value]));
  if (attrs.has("hidden")) return `${name}[hidden]`;
  if (attrs.has("popover")) return `${name}[popover]`;
  if (name === "dialog" && !attrs.has("open")) return "dialog";
  const style = attrs.get("style");
  if (style !== undefined && HIDING_STYLE.test(cssText(style))) return `${name}[style]`;
  // The HTML elements of the list; <svg> itself is the SVG namespace's.
  const html = element.namespaceURI === "http://www.w3.org/1999/xhtml";
  return NEVER_SHOWN.has(name) && (html || name === "svg") ? name : undefined;
}

/** The HTML that CommonMark's reference renderer makes of `markdown` (raw HTML passed through). */
export function commonmarkHtml(markdown: string): string {
  return new HtmlRenderer().render(new Parser().parse(markdown));
}

let context: Element | undefined;

/** A `<div>` in a parsed document: the fragment's context element. */
function divContext(): Element {
  if (context !== undefined) return context;
  const doc = parse("<!DOCTYPE html><div></div>");
  const html = doc.childNodes.find((n) => n.nodeName === "html") as Element;
  const body = html.childNodes.find((n) => n.nodeName === "body") as Element;
  context = body.childNodes[0] as Element;
  return context;
}

function childrenOf(node: Node): Node[] {
  // An HTML <template>'s children are its content; a <template> in <svg> or <math> is an element of theirs.
  if (node.nodeName === "template" && "content" in node)
    return (node as DefaultTreeAdapterMap["template"]).content.childNodes;
  return "childNodes" in node ? (node.childNodes as Node[]) : [];
}

/** The marker's place in one parse of `html`. */
function readingOf(html: string, marker: string, scriptingEnabled: boolean): OracleReading {
  const fragment = parseFragment(divContext(), html, { scriptingEnabled });
  let found: OracleReading | undefined;
  let inComment = false;
  let inAttribute = false;
  const walk = (node: Node, chain: string[], parentName: string | undefined): void => {
    if (found !== undefined) return;
    if (node.nodeName === "#text") {
      const value = (node as DefaultTreeAdapterMap["textNode"]).value;
      if (!value.includes(marker)) return;
      // Text right inside a <select> (not in an <option>) is kept by the tree builder but drawn
      // by no browser.
      const extra = parentName === "select" ? ["select(text)"] : [];
      const why = [...chain, ...extra];
      found = { verdict: why.length === 0 ? "shown" : "hidden", why };
      return;
    }
    if (node.nodeName === "#comment") {
      if ((node as DefaultTreeAdapterMap["commentNode"]).data.includes(marker)) inComment = true;
      return;
    }
    let next = chain;
    if ("tagName" in node) {
      const element = node as Element;
      if (element.attrs.some((a) => a.value.includes(marker) || a.name.includes(marker)))
        inAttribute = true;
      const reason = hidingReason(element);
      if (reason !== undefined) next = [...chain, reason];
    }
    const name = "tagName" in node ? (node as Element).tagName : parentName;
    for (const child of childrenOf(node)) walk(child, next, name);
  };
  walk(fragment, [], "div");
  if (found !== undefined) return found;
  return {
    verdict: "absent",
    why: [inComment ? "comment" : inAttribute ? "attribute" : "nowhere"],
  };
}

/**
 * Where `marker` lands once `markdown` is rendered by commonmark and the HTML parsed by parse5
 * in a `<div>`: read with scripting on and off (`<noscript>`'s content is raw text with scripts
 * on, markup without), the worse reading wins: hidden in either is hidden, absent in either
 * (and hidden in neither) is absent.
 */
export function oracleReading(markdown: string, marker: string): OracleReading {
  const html = commonmarkHtml(markdown);
  const on = readingOf(html, marker, true);
  const off = readingOf(html, marker, false);
  if (on.verdict === "hidden") return on;
  if (off.verdict === "hidden") return { ...off, why: [...off.why, "(scripting off)"] };
  if (on.verdict === "absent") return on;
  if (off.verdict === "absent") return { ...off, why: [...off.why, "(scripting off)"] };
  return on;
}

/** {@link oracleReading}'s verdict alone. */
export function oracleHidden(markdown: string, marker: string): Verdict {
  return oracleReading(markdown, marker).verdict;
}
