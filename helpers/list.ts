import type { HelperDelegate } from "handlebars";
import { isList } from "./collections.js";
import { splitHelperArgs } from "./logic.js";
import { toText, unescapeSeparator } from "./text.js";

const DEFAULT_LIST_JOIN = "\n";

/**
 * `{{#list xs prefix="- " suffix="" join="\n"}}{{this}}{{else}}…{{/list}}`.
 *
 * Renders the block once per item (`this` = item; `@index`, `@first`, `@last`
 * and block params `as |item i|` refer to the position in `xs`), wraps each
 * non-empty result in prefix/suffix and joins them. Items whose block renders
 * to "" are skipped, so a filtered item leaves no lone prefix. When nothing is
 * rendered (missing, empty or non-list `xs`, or every item empty) the result is
 * the `{{else}}` block, or "".
 */
export function listHelper(this: unknown, ...args: unknown[]): string {
  const [params, options] = splitHelperArgs(args);
  if (typeof options.fn !== "function") {
    throw new Error("must be used as a block: {{#list items}}…{{/list}}");
  }
  const items = isList(params[0]) ? Array.from(params[0]) : [];
  const hash = options.hash;
  const prefix = toText(hash.prefix);
  const suffix = toText(hash.suffix);
  const join = hash.join === undefined ? DEFAULT_LIST_JOIN : unescapeSeparator(toText(hash.join));

  const parts: string[] = [];
  items.forEach((item, index) => {
    const data = {
      ...options.data,
      _parent: options.data,
      index,
      first: index === 0,
      last: index === items.length - 1,
    };
    const body = options.fn(item, { data, blockParams: [item, index] });
    if (body !== "") parts.push(prefix + body + suffix);
  });
  if (parts.length === 0) return options.inverse(this);
  return parts.join(join);
}

export const listHelpers: Readonly<Record<string, HelperDelegate>> = {
  list: listHelper,
};
