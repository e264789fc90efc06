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
  const list = params[0];
  const items = Array.isArray(list) ? list : isList(list) ? Array.from(list) : [];
  const hash = options.hash;
  // Made as text only once an item prints, then once for the call: a list
  // given as `prefix=rules` is its items joined, and each call that printed
  // nothing joined a trusted project's 240 KB of rules again, counted as 3
  // items given (73 s of CPU for one section; issue 24, review rev46c F3).
  // What is printed counts as the call's output.
  let prefix = "";
  let suffix = "";
  let join: string | undefined;

  // One data frame for the whole list, updated per item, as Handlebars' own
  // `each` does: each body has finished before the next item starts. A spread
  // per item cost more than the rest of the helper.
  const data = childFrame(options.data);
  const last = items.length - 1;
  let out = "";
  let any = false;
  for (let index = 0; index <= last; index++) {
    const item = items[index];
    data.index = index;
    data.first = index === 0;
    data.last = index === last;
    const body = options.fn(item, { data, blockParams: [item, index] });
    if (body === "") continue;
    if (!any) {
      prefix = toText(hash.prefix);
      suffix = toText(hash.suffix);
      out = prefix + body + suffix;
      any = true;
      continue;
    }
    join ??= hash.join === undefined ? DEFAULT_LIST_JOIN : unescapeSeparator(toText(hash.join));
    out = out + join + prefix + body + suffix;
  }
  return any ? out : options.inverse(this);
}

/** A data frame below `parent`: its keys (`@root`, outer `@index`…) copied, `_parent` pointing up. */
function childFrame(parent: unknown): Record<string, unknown> {
  const frame: Record<string, unknown> = {};
  if (parent !== null && typeof parent === "object") {
    for (const key of Object.keys(parent)) frame[key] = (parent as Record<string, unknown>)[key];
  }
  frame._parent = parent;
  return frame;
}

export const listHelpers: Readonly<Record<string, HelperDelegate>> = {
  list: listHelper,
};
