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
 * renders never ask (a repository text with no `<` is not read). Ask
 * {@link commonmarkWork} first: its inline scans are not linear on every text.
 */
export function commonmarkHtml(markdown: string): string | undefined {
  if (!withinRenderWork(markdown)) return undefined;
  loaded ??= createRequire(import.meta.url)("commonmark") as CommonMark;
  return new loaded.HtmlRenderer().render(new loaded.Parser().parse(markdown));
}

/** Most {@link commonmarkWork} a text may take to be rendered (some 0.2 s at worst). */
export const MAX_COMMONMARK_WORK = 20_000_000;

/** What a link destination's `](` costs per character read, against a `<!` or `<?`: its scan reads each character slowly. */
const DESTINATION_WEIGHT = 7;

/**
 * What `commonmark` would spend on `text`'s inline scans that run to a
 * closer or to their paragraph's end (it tries each at every start, so one
 * paragraph of them is quadratic: 200 KB of `[a](` took 320 s, of `a <!X`
 * 54 s): a link destination after `](` to the next white space, a `<?`,
 * `<!--`, `<![CDATA[` or `<!X` to its closer, each at most to the next blank
 * line. Past {@link MAX_COMMONMARK_WORK} the text is not rendered. Linear:
 * each search goes on from where the last one found.
 */
export function commonmarkWork(text: string): number {
  let work = 0;
  const next = new Map<string | RegExp, number>();
  // The next match of `what` at or after `at` (text.length: none); asked at growing `at`.
  const nextAt = (what: string | RegExp, at: number): number => {
    const known = next.get(what);
    if (known !== undefined && known >= at) return known;
    let found: number;
    if (typeof what === "string") found = text.indexOf(what, at);
    else {
      what.lastIndex = at;
      found = what.exec(text)?.index ?? -1;
    }
    const place = found === -1 ? text.length : found;
    next.set(what, place);
    return place;
  };
  const blank = /\n[ \t]*(?:\r\n?|\n)|\r[ \t]*\r/g;
  const space = /\s/g;
  const starts = /\]\(|<[!?]/g;
  for (let m = starts.exec(text); m !== null; m = starts.exec(text)) {
    const at = m.index;
    const end = nextAt(blank, at);
    let reach: number;
    let weight = 1;
    if (m[0] === "](") {
      reach = nextAt(space, at);
      weight = DESTINATION_WEIGHT;
    } else if (m[0] === "<?") reach = nextAt("?>", at);
    else if (text.startsWith("<!--", at)) reach = nextAt("-->", at);
    else if (text.startsWith("<![CDATA[", at)) reach = nextAt("]]>", at);
    else reach = nextAt(">", at);
    work += weight * (Math.min(reach, end) - at);
    if (work > MAX_COMMONMARK_WORK) return work;
  }
  return work;
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
