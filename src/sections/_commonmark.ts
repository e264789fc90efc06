import { createRequire } from "node:module";
import { eachLine, freshReading, readLine } from "../_blocks.js";

type CommonMark = typeof import("commonmark");

let loaded: CommonMark | undefined;

/**
 * Most block quotes and list items open at once that the renderer is given
 * (no document nests so deep): it opens each one a line starts at a cost
 * that grows with those already open (one line of 15,000 nested `- ` took it
 * 1.5 s; 60,000, minutes).
 */
const MAX_RENDER_DEPTH = 128;

/**
 * Most open block quotes and list items the renderer may walk, summed over
 * a text's lines: each line is matched against every container open at its
 * start, outermost first (2,000 nested list items kept open by 2,000 blank
 * lines took it 0.25 s). Some 0.1 s of its work.
 */
const MAX_RENDER_WALK = 1_500_000;

/**
 * The HTML CommonMark's reference renderer (`commonmark`, the spec's own
 * JavaScript implementation) makes of `markdown`, raw HTML passed on as it
 * is; undefined when its block structure is more than the renderer reads in
 * linear time (containers past {@link MAX_RENDER_DEPTH} or
 * {@link MAX_RENDER_WALK}, as sysprompt's block reader reads them: rev64b F1,
 * a 250 KB `AGENTS.md` held it minutes). Loaded on first use only: most
 * renders never ask (a repository text with no `<` is not read).
 */
export function commonmarkHtml(markdown: string): string | undefined {
  if (!withinRenderWork(markdown)) return undefined;
  loaded ??= createRequire(import.meta.url)("commonmark") as CommonMark;
  return new loaded.HtmlRenderer().render(new loaded.Parser().parse(markdown));
}

/** Whether `markdown`'s containers stay within {@link MAX_RENDER_DEPTH} and {@link MAX_RENDER_WALK}. Linear. */
function withinRenderWork(markdown: string): boolean {
  const reading = freshReading();
  let walk = 0;
  let within = true;
  eachLine(markdown, (from, to) => {
    if (!within) return;
    walk += reading.containers.length;
    readLine(reading, markdown, from, to);
    within = walk <= MAX_RENDER_WALK && reading.containers.length <= MAX_RENDER_DEPTH;
  });
  return within;
}
