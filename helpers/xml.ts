import type { HelperOptions } from "handlebars";
import { withoutPrintedMarks, wrappedBody, wrappedElement } from "../src/_fence.js";
import { escapeXml, tokenBracketsReferenced } from "../src/_prompt-text.js";
import { marked, READS_BLOCK } from "./_cost.js";

/** The XML escaper: it lives with the prompt's other text rules (the bracket chat tokens). */
export { escapeXml };

const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** An attribute's name: a tag name, or one with a namespace (`xml:lang`). */
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

/** The characters an attribute value written between double quotes must not hold as they are. */
const ATTRIBUTE_SPECIAL = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});)|[<>"\n\r]/g;

const ATTRIBUTE_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/**
 * `value` as the text of an attribute written `name="…"`: every `"`, `<`,
 * `>` and line break escaped, and every `&` that starts no entity. A value
 * from the data may be escaped already (a context file's `path`, or `&lt;`
 * where a project's value held `<`): its entities are kept, not written
 * `&amp;lt;`. A project's one-line value `PROJ-1" source="user` then stays
 * one attribute's text.
 */
export function attributeValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  // A bracket chat token (`[INST]`) is broken as in any XML value (`[INST&#93;`).
  return tokenBracketsReferenced(String(value), (piece) =>
    piece.replace(ATTRIBUTE_SPECIAL, (c) => ATTRIBUTE_ENTITIES[c] ?? c),
  );
}

/**
 * ` name="value"` for each of the block's key=value pairs, sorted by name
 * (Handlebars gives them in no order a template can rely on).
 */
function attributes(hash: Record<string, unknown> | undefined): string {
  let out = "";
  const pairs = Object.entries(hash ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, value] of pairs) {
    if (!ATTRIBUTE_NAME.test(name)) throw new Error(`"${name}" is not a valid attribute name`);
    out += ` ${name}="${attributeValue(value)}"`;
  }
  return out;
}

/**
 * `{{#xml "tag"}}…{{/xml}}`: wraps the block as `<tag>\n…\n</tag>` (with a
 * blank line before `</tag>` where the block ends in a paragraph's text:
 * `wrappedElement`, src/_fence.ts); nothing when the block is blank. Key=value pairs are the tag's attributes, their
 * values escaped ({@link attributeValue}): `{{#xml "ticket" id=vars.ticket}}`
 * writes `<ticket id="…">` whatever the value holds. The block's ends are trimmed only where that
 * leaves nothing open it did not, and a text that needs the blank line it
 * starts with keeps it after the tag line (`wrappedBody`, src/_fence.ts).
 * Reading the block's text again, it is marked so that the engine counts
 * that text at each level (READS_BLOCK).
 */
export const xmlBlock = marked(function xmlBlock(
  this: unknown,
  tag: unknown,
  options?: HelperOptions,
): string {
  // `{{#xml}}` passes the options object as `tag`; `{{xml "t"}}` has no block to wrap.
  if (options === undefined || typeof options.fn !== "function") {
    throw new Error('must be used as a block with a tag name: {{#xml "tag"}}…{{/xml}}');
  }
  const name = String(tag);
  // A value printed inside is placed as the element's text, not in the template's containers.
  const written = withoutPrintedMarks(options.fn(this));
  if (written.trim() === "") return "";
  if (!TAG_NAME.test(name)) throw new Error(`"${name}" is not a valid tag name`);
  // Trimmed only where that leaves nothing open the text did not (src/_fence.ts).
  const body = wrappedBody(written, name, true);
  return wrappedElement(`<${name}${attributes(options.hash)}>`, body, name);
}, READS_BLOCK);
