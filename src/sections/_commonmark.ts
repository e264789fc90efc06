import { createRequire } from "node:module";

type CommonMark = typeof import("commonmark");

let loaded: CommonMark | undefined;

/**
 * The HTML CommonMark's reference renderer (`commonmark`, the spec's own
 * JavaScript implementation) makes of `markdown`, raw HTML passed on as it
 * is. Loaded on first use only: most renders never ask (a repository text
 * with no `<` is not read).
 */
export function commonmarkHtml(markdown: string): string {
  loaded ??= createRequire(import.meta.url)("commonmark") as CommonMark;
  return new loaded.HtmlRenderer().render(new loaded.Parser().parse(markdown));
}
