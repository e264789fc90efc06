import type { HelperOptions } from "handlebars";
import { wrappedBody } from "../src/_fence.js";
import { marked, READS_BLOCK } from "./_cost.js";

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/**
 * Escapes the five XML special characters. `&` goes first by construction: one
 * pass over the input means an entity we produce is never escaped again.
 */
export function escapeXml(value: unknown): string {
  if (value === null || value === undefined) return "";
  return String(value).replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}

const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * `{{#xml "tag"}}…{{/xml}}`: wraps the block as `<tag>\n…\n</tag>`; nothing
 * when the block is blank. The block's ends are trimmed only where that
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
  const written = options.fn(this);
  if (written.trim() === "") return "";
  if (!TAG_NAME.test(name)) throw new Error(`"${name}" is not a valid tag name`);
  // Trimmed only where that leaves nothing open the text did not (src/_fence.ts).
  const body = wrappedBody(written, name, true);
  return `<${name}>\n${body}\n</${name}>`;
}, READS_BLOCK);
