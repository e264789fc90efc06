import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The documentation as tests read it: the README and every page under docs/,
// their headings, anchors, links and fenced blocks.

export const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Every documentation page, as a path from the repository root: the README first. */
export function docPages(): string[] {
  const pages = readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...pages];
}

export function readDoc(page: string): string {
  return readFileSync(join(REPO, page), "utf8");
}

/** Each line of `text` with whether it lies inside a fenced code block (fence lines count as inside). */
function linesWithFences(text: string): { line: string; fenced: boolean }[] {
  let open = false;
  return text.split("\n").map((line) => {
    const fence = /^\s*```/.test(line);
    const fenced = open || fence;
    if (fence) open = !open;
    return { line, fenced };
  });
}

export interface Heading {
  level: number;
  text: string;
  /** Its line, from 1. */
  line: number;
}

/** A heading as its line reads: `"## Snapshot tests"`. */
export function headingLine(h: { level: number; text: string }): string {
  return `${"#".repeat(h.level)} ${h.text}`;
}

/** The headings of a page, outside fenced blocks. */
export function headings(text: string): Heading[] {
  return linesWithFences(text).flatMap(({ line, fenced }, i) => {
    const m = fenced ? null : /^(#{1,6}) (.+)$/.exec(line);
    return m ? [{ level: m[1]?.length ?? 0, text: m[2] ?? "", line: i + 1 }] : [];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a page's headings give, a repeated one with `-1`, `-2`… as GitHub numbers them. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(text)) {
    const s = slug(h.text);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n ? `${s}-${n}` : s);
  }
  return out;
}

/**
 * The part of `page` under the heading line `heading` (such as `"### Other agents"`), up to the
 * next heading of its level or higher. Fails when the page has no such heading or two.
 */
export function docPart(page: string, heading: string): string {
  const text = readDoc(page);
  const lines = text.split("\n");
  const all = headings(text);
  const found = all.filter((h) => headingLine(h) === heading);
  if (found.length !== 1) throw new Error(`${page} has ${found.length} headings "${heading}"`);
  const start = found[0] as (typeof all)[number];
  const next = all.find((h) => h.line > start.line && h.level <= start.level);
  return lines.slice(start.line, next ? next.line - 1 : lines.length).join("\n");
}

/** The link targets of a page's prose: fenced blocks and inline code spans are not links. */
export function links(text: string): string[] {
  let open = false;
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      open = !open;
      continue;
    }
    if (open) continue;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1] ?? "");
  }
  return out;
}

/** The bodies of the fenced blocks of `lang` in `text`. */
export function fenced(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, "gm"))].map(
    (m) => m[1] ?? "",
  );
}

/** A block's command lines: trimmed, without blank lines and comment lines. */
export function commandLines(block: string): string[] {
  return block
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}

export interface ShBlock {
  page: string;
  /** The heading line the block sits under, such as `"## Snapshot tests"`. */
  heading: string;
  /** That heading and the ones around it, outermost first: a runner may read the block by any of them. */
  within: string[];
  /** The line of its opening fence, from 1. */
  line: number;
  /** The `<!-- sh: … -->` comment on the line above the fence, without its delimiters; null when there is none. */
  marker: string | null;
  text: string;
}

/** The fences whose lines are shell commands. */
const SHELL_FENCES = new Set(["```sh", "```bash", "```shell", "```console", "```zsh"]);

/**
 * Whether the block opened at `lines[i]` holds shell commands: an `sh` (or
 * other shell) fence, or an untagged one whose first line is a `$ ` command
 * (a transcript).
 */
function isShellBlock(lines: readonly string[], i: number): boolean {
  const fence = lines[i]?.trim() ?? "";
  if (SHELL_FENCES.has(fence)) return true;
  return fence === "```" && /^\s*\$ /.test(lines[i + 1] ?? "") && isOpening(lines, i);
}

/** Whether the bare fence at `lines[i]` opens a block (an even number of fences before it). */
function isOpening(lines: readonly string[], i: number): boolean {
  return lines.slice(0, i).filter((l) => /^\s*```/.test(l)).length % 2 === 0;
}

/** Every shell block of every page (see {@link isShellBlock}), with the heading it sits under and its marker. */
export function shBlocks(): ShBlock[] {
  return docPages().flatMap((page) => {
    const text = readDoc(page);
    const lines = text.split("\n");
    const heads = headings(text);
    const out: ShBlock[] = [];
    lines.forEach((_line, i) => {
      if (!isShellBlock(lines, i)) return;
      const above = heads.filter((x) => x.line < i + 1);
      const within = above.filter(
        (x, k) => !above.slice(k + 1).some((later) => later.level <= x.level),
      );
      const end = lines.findIndex((l, j) => j > i && l.trim() === "```");
      const marker = /^\s*<!-- sh: (.+) -->$/.exec(lines[i - 1] ?? "");
      out.push({
        page,
        heading: within.length ? headingLine(within[within.length - 1] as Heading) : "",
        within: within.map(headingLine),
        line: i + 1,
        marker: marker?.[1] ?? null,
        text: lines.slice(i + 1, end).join("\n"),
      });
    });
    return out;
  });
}
