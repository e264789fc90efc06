import { type DefaultTreeAdapterMap, parse } from "parse5";

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
