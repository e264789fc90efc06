import { HtmlRenderer, type Node, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse } from "parse5";

// CommonMark's reference parser (commonmark.js, a devDependency) as the oracle
// for how a Markdown reader takes the prompt's blocks: what src/_blocks.ts
// reads must match it.

/** Where the parser puts the first line holding `needle`, and the block quotes and list items above it. */
export interface Place {
  /** `code` (fenced or indented), `html` (an HTML block, with its kind), `heading`, `paragraph`, or `none`. */
  block: string;
  containers: ("quote" | "item")[];
}

export function placeOf(markdown: string, needle: string): Place {
  const walker = new Parser().parse(markdown).walker();
  const containers: ("quote" | "item")[] = [];
  for (let event = walker.next(); event !== null; event = walker.next()) {
    const node: Node = event.node;
    if (node.type === "block_quote" || node.type === "item") {
      if (event.entering) containers.push(node.type === "block_quote" ? "quote" : "item");
      else containers.pop();
      continue;
    }
    if (!event.entering) continue;
    if (node.type === "code_block" && node.literal?.includes(needle))
      return { block: "code", containers };
    if (node.type === "html_block" && node.literal?.includes(needle)) {
      const kind = (node as Node & { _htmlBlockType: number })._htmlBlockType;
      return { block: `html${kind}`, containers };
    }
    if (node.type === "text" && node.literal?.includes(needle)) {
      const parent = node.parent;
      const block = parent?.type === "heading" ? "heading" : "paragraph";
      return { block, containers };
    }
  }
  return { block: "none", containers };
}

/** True when the parser takes the line holding `needle` for code or an HTML block running to its end tag. */
export function swallowed(markdown: string, needle: string): boolean {
  const { block } = placeOf(markdown, needle);
  return block === "code" || /^html[1-5]$/.test(block);
}

/**
 * The lines `isTag` takes for a tag of the prompt's (or a host's) that the
 * parser puts inside a code block, an HTML block running to its end tag
 * (kinds 1-5), a block quote or a list item: where the model would read a
 * closing tag or the text after it as part of what a repository wrote.
 */
export function tagLinesInside(markdown: string, isTag: (line: string) => boolean): string[] {
  const walker = new Parser().parse(markdown).walker();
  const spans: [number, number, string][] = [];
  for (let event = walker.next(); event !== null; event = walker.next()) {
    const node = event.node;
    if (!event.entering) continue;
    const kind = (node as Node & { _htmlBlockType?: number })._htmlBlockType ?? 0;
    const inside =
      node.type === "code_block" ||
      (node.type === "html_block" && kind <= 5) ||
      node.type === "block_quote" ||
      node.type === "item";
    const pos = node.sourcepos;
    if (inside && pos) spans.push([pos[0][0], pos[1][0], node.type]);
  }
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (!isTag(line)) return;
    const span = spans.find(([from, to]) => i + 1 >= from && i + 1 <= to);
    if (span) found.push(`line ${i + 1} ${JSON.stringify(line)} inside ${span[2]}`);
  });
  return found;
}

/**
 * How many `name` elements are open at `needle` in the HTML commonmark.js
 * renders, as an HTML reader nests them: start tags less end tags, none
 * counted in a comment or an attribute value.
 */
export function depthAt(markdown: string, name: string, needle: string): number {
  const html = new HtmlRenderer().render(new Parser().parse(markdown));
  const at = html.indexOf(needle);
  if (at === -1) throw new Error(`${needle} not in the rendered HTML`);
  const before = html
    .slice(0, at)
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/"[^"]*"/g, '""');
  const opens = before.match(new RegExp(`<${name}[\\s>]`, "g"))?.length ?? 0;
  const closes = before.match(new RegExp(`</${name}\\s*>`, "g"))?.length ?? 0;
  return opens - closes;
}

/** Each link the parser reads in `markdown`: its text (the literals inside it) and its destination. */
export function linksOf(markdown: string): { text: string; destination: string }[] {
  const walker = new Parser().parse(markdown).walker();
  const links: { text: string; destination: string }[] = [];
  const open: { text: string; destination: string }[] = [];
  for (let event = walker.next(); event !== null; event = walker.next()) {
    const node = event.node;
    if (node.type === "link") {
      if (event.entering) open.push({ text: "", destination: node.destination ?? "" });
      else links.push(open.pop() as { text: string; destination: string });
    } else if (event.entering && node.literal !== null)
      for (const link of open) link.text += node.literal;
  }
  return links;
}

/** CommonMark's reference HTML for `markdown`. */
export const commonmarkHtml = (markdown: string) =>
  new HtmlRenderer().render(new Parser().parse(markdown));

type HtmlNode = DefaultTreeAdapterMap["node"];

/** The element path around `marker`'s text node, `html` parsed as a page without and with a doctype. */
export function pathsAround(html: string, marker: string): { quirks?: string; noQuirks?: string } {
  const around = (page: string) => {
    let found: string | undefined;
    const walk = (node: HtmlNode, path: string[]) => {
      if (found !== undefined) return;
      if (node.nodeName === "#text") {
        if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker))
          found = path.join(">");
        return;
      }
      const next = "tagName" in node ? [...path, node.tagName] : path;
      for (const child of "childNodes" in node ? (node.childNodes as HtmlNode[]) : [])
        walk(child, next);
    };
    walk(parse(page), []);
    return found;
  };
  return { quirks: around(html), noQuirks: around(`<!DOCTYPE html>${html}`) };
}
