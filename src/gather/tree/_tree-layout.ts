import { join, sep } from "node:path";
import { pushAll } from "../../_arrays.js";
import type { EntryKind } from "../../_fs.js";
import { readdir, readlink } from "../../_io.js";
import { lineOpeningNoBlock, oneLine } from "../../_prompt-text.js";
import { escapeSpacing } from "../../_text.js";
import { compareNames, firstAndLastByName } from "./_collate.js";
import { statOf, type TreeListing } from "./_tree-walk.js";

/** One line of the rendered tree; `depth` 0 is the root line. */
export interface TreeLine {
  depth: number;
  text: string;
}

export interface LayoutLimits {
  maxDepth: number;
  maxEntries: number;
  maxLines: number;
  /** Shown for every entry instead of its own mtime (pinned fixtures). */
  mtimeMs?: number;
  signal?: AbortSignal;
}

interface StatEntry {
  name: string;
  /** Where it is: the bytes of its name when that is not UTF-8. */
  path: string | Buffer;
  kind: EntryKind;
  mtimeMs: number;
  size: number;
  /** A symlink's target, read only for links that are shown. */
  target?: string;
}

/** A folder whose children were stat'ed, sorted and chosen. */
interface FolderView {
  /** `atLeast`: the folder was not read to its end, so `more` is a floor. */
  items: (
    | { entry: StatEntry; rel: string; view?: FolderView }
    | { more: number; atLeast: boolean }
  )[];
  /** Listed by name, not by time: more than {@link LARGE_FOLDER} entries. */
  byName: boolean;
  /** Only the listing's first `readCap` entries were read, so `more` is a floor. */
  capped: boolean;
  /** Entries of the folder read at most. */
  readCap: number;
}

const INDENT = "  ";

/** What a byte that is not UTF-8 decodes to in a name from a folder listing. */
const REPLACEMENT = "\uFFFD";

/**
 * The entries of one folder by the bytes of their names, read once and only
 * when a name that is not UTF-8 needs them. Two such names can decode alike
 * (`\xff` and `\xfe` both give U+FFFD): each raw name is handed out once.
 */
class RawNames {
  private byDecoded: Promise<Map<string, Buffer[]>> | undefined;

  constructor(private readonly dir: string) {}

  async take(decoded: string): Promise<Buffer | undefined> {
    this.byDecoded ??= readdir(this.dir, { encoding: "buffer" }).then(
      (names) => {
        const map = new Map<string, Buffer[]>();
        for (const raw of names) {
          const name = raw.toString();
          if (name.includes(REPLACEMENT)) map.set(name, [...(map.get(name) ?? []), raw]);
        }
        return map;
      },
      // Unreadable since it was listed: the entries are not there to show.
      () => new Map<string, Buffer[]>(),
    );
    const raw = (await this.byDecoded).get(decoded)?.shift();
    return raw === undefined ? undefined : Buffer.concat([Buffer.from(`${this.dir}${sep}`), raw]);
  }
}

/**
 * A folder with more entries than this is listed by name, not by time: its
 * first `maxEntries - 1` names, `… K more` and its last name. Ordering by time
 * means looking at every entry, which takes seconds for a folder of 200,000
 * (generated files, a data set); by name only the entries shown are looked at.
 */
export const LARGE_FOLDER = 1000;

/** What the line of a folder listed by name says after its time; with `readCap`, only that many of its entries were read. */
export function byNameNote(readCap?: number, totalReached = false): string {
  if (readCap !== undefined && totalReached) {
    return `(entries left unread: the tree's total was reached; ${readCap} read, listed by name)`;
  }
  return readCap !== undefined
    ? `(over ${readCap} entries: the first ${readCap} read, listed by name)`
    : `(over ${LARGE_FOLDER} entries: listed by name)`;
}

/** The line that ends a tree cut by the line cap. */
export const ELISION_MARKER = "… deeper entries not shown (line limit)";

/**
 * The tree's lines in display order, capped at `maxLines`.
 *
 * Each shown folder's children are ordered newest first (ties by name); a
 * folder with more than `maxEntries` children shows its newest
 * `maxEntries - 1`, a `… K more` line and its oldest. A folder with more than
 * {@link LARGE_FOLDER} children is ordered by name instead, and its own line
 * says so ({@link byNameNote}). `truncated` is true when a folder's entries
 * were elided (`… K more`) or the line cap cut the tree. Over `maxLines` the
 * deepest lines go first, the latest of equally deep ones before earlier ones;
 * the root and depth-1 lines always stay (so a tiny cap may be exceeded by
 * them), and {@link ELISION_MARKER} ends the tree; `cut` says the line cap
 * left lines out (the tree would use more lines if it had them).
 *
 * Built level by level: how many lines a folder's children take is known
 * from the listing alone, so folders whose lines the cap would drop are never
 * stat'ed.
 */
export async function layoutTree(
  root: string,
  rootName: string,
  listing: TreeListing,
  limits: LayoutLimits,
): Promise<{ lines: TreeLine[]; truncated: boolean; cut: boolean }> {
  const { maxDepth, maxEntries, maxLines, mtimeMs, signal } = limits;

  const linesOf = async (rel: string): Promise<number> => {
    const n = await listing.countUpTo(rel, maxEntries + 1);
    return n > maxEntries ? maxEntries + 1 : n;
  };

  const view = async (rel: string): Promise<FolderView> => {
    if (signal?.aborted) throw signal.reason;
    const dir = rel === "" ? root : join(root, rel);
    const rawNames = new RawNames(dir);
    const statEntry = async (entry: { name: string }): Promise<StatEntry | undefined> => {
      let path: string | Buffer = join(dir, entry.name);
      let s = await statOf(path, false);
      if (!s && entry.name.includes(REPLACEMENT)) {
        // A name that is not UTF-8 came out of the listing decoded, and the
        // decoded name opens nothing: reach the entry by its bytes.
        const raw = await rawNames.take(entry.name);
        if (raw) {
          path = raw;
          s = await statOf(raw, false);
        }
      }
      // Gone since the folder was listed: it is not there to show.
      if (!s) return undefined;
      const kind: EntryKind = s.isDirectory()
        ? "dir"
        : s.isFile()
          ? "file"
          : s.isSymbolicLink()
            ? "link"
            : "other";
      return { name: entry.name, path, kind, mtimeMs: mtimeMs ?? s.mtimeMs, size: s.size };
    };
    const children = await listing.children(rel);
    const capped = listing.isCapped(rel);
    let shown: StatEntry[];
    let more: number;
    const byName = children.length > LARGE_FOLDER || capped;
    if (byName) {
      // Ordering by time means looking at every entry: seconds for 200,000.
      // By name, only the entries shown are looked at, picked in one pass.
      const names = children.map((e) => e.name);
      const picked = await firstAndLastByName(names, maxEntries - 1, signal);
      shown = (await Promise.all(picked.map((name) => statEntry({ name })))).filter(
        (e) => e !== undefined,
      );
      more = children.length - picked.length;
    } else {
      const stats = await Promise.all(children.map(statEntry));
      const sorted = stats.filter((e) => e !== undefined).sort(newestFirst);
      more = sorted.length - maxEntries;
      shown = more > 0 ? [...sorted.slice(0, maxEntries - 1), ...sorted.slice(-1)] : sorted;
    }
    await Promise.all(shown.map((entry) => readTarget(entry)));
    const items: FolderView["items"] = shown.map((entry) => ({
      entry,
      rel: rel === "" ? entry.name : `${rel}/${entry.name}`,
    }));
    if (more > 0) items.splice(items.length - 1, 0, { more, atLeast: capped });
    return { items, byName, capped, readCap: listing.readCap(rel) };
  };

  const rootView = await view("");
  let total = 1 + rootView.items.length;
  let truncated = false;
  const views = [rootView];
  let frontier = [rootView];
  for (let depth = 1; depth < maxDepth && !truncated; depth++) {
    const folders = frontier.flatMap((v) =>
      v.items.filter((i) => "entry" in i && i.entry.kind === "dir"),
    ) as { entry: StatEntry; rel: string; view?: FolderView }[];
    const counts: number[] = [];
    for (const folder of folders) counts.push(await linesOf(folder.rel));
    let chosen = folders;
    if (total + counts.reduce((a, b) => a + b, 0) > maxLines) {
      // This level is the deepest that can keep lines: keep its first ones, in display order.
      truncated = true;
      const room = Math.max(0, maxLines - 1 - total);
      let used = 0;
      chosen = [];
      for (const [i, folder] of folders.entries()) {
        if (used >= room) break;
        chosen.push(folder);
        used += counts[i] ?? 0;
      }
    }
    await Promise.all(
      chosen.map(async (folder) => {
        folder.view = await view(folder.rel);
      }),
    );
    frontier = chosen.flatMap((f) => (f.view ? [f.view] : []));
    pushAll(views, frontier);
    total += frontier.reduce((a, v) => a + v.items.length, 0);
  }

  // "/" is named "/", not "//"; every other folder's line ends in one "/".
  const rootText = rootName.endsWith("/") ? safeName(rootName) : `${safeName(rootName)}/`;
  const lines: TreeLine[] = [{ depth: 0, text: withNote(rootText, rootView, listing) }];
  const emit = (v: FolderView, depth: number) => {
    for (const item of v.items) {
      if ("more" in item) {
        const count = item.atLeast ? `at least ${item.more}` : `${item.more}`;
        lines.push({ depth, text: `${INDENT.repeat(depth)}… ${count} more` });
        continue;
      }
      lines.push({ depth, text: withNote(entryText(item.entry, depth), item.view, listing) });
      if (item.view) emit(item.view, depth + 1);
    }
  };
  emit(rootView, 1);
  const cut = capLines(lines, maxLines, truncated);
  // Entries a folder elided (`… K more`) are left out as surely as cut lines.
  const elided = views.some((v) => v.items.some((i) => "more" in i));
  return { lines: cut.lines, truncated: cut.truncated || elided, cut: cut.truncated };
}

function withNote(text: string, view: FolderView | undefined, listing: TreeListing): string {
  if (!view?.byName) return text;
  return `${text}  ${byNameNote(view.capped ? view.readCap : undefined, view.readCap < listing.entryCap)}`;
}

/**
 * Drops lines until `maxLines` hold them and the marker: deepest first, the
 * latest of equally deep lines first, never depth 0 or 1. `force` marks the
 * tree as cut even when what was built already fits (deeper levels were never
 * built because the cap would have dropped them).
 */
export function capLines(
  lines: readonly TreeLine[],
  maxLines: number,
  force = false,
): { lines: TreeLine[]; truncated: boolean } {
  if (!force && lines.length <= maxLines) return { lines: [...lines], truncated: false };
  const excess = lines.length - (maxLines - 1);
  const dropped = new Set(
    lines
      .map((line, index) => ({ depth: line.depth, index }))
      .filter((l) => l.depth >= 2)
      .sort((a, b) => b.depth - a.depth || b.index - a.index)
      .slice(0, Math.max(0, excess))
      .map((l) => l.index),
  );
  const kept = lines.filter((_, index) => !dropped.has(index));
  kept.push({ depth: 0, text: ELISION_MARKER });
  return { lines: kept, truncated: true };
}

function newestFirst(a: StatEntry, b: StatEntry): number {
  return b.mtimeMs - a.mtimeMs || compareNames(a.name, b.name);
}

async function readTarget(entry: StatEntry): Promise<void> {
  if (entry.kind !== "link") return;
  try {
    entry.target = safeName(await readlink(entry.path));
  } catch {
    // Replaced by something else since it was listed: the target is unknown.
    entry.target = "?";
  }
}

function entryText(entry: StatEntry, depth: number): string {
  const name = `${INDENT.repeat(depth)}${safeName(entry.name)}`;
  const time = formatTime(entry.mtimeMs);
  switch (entry.kind) {
    case "dir":
      return `${name}/  ${time}`;
    case "file":
      return `${name}  ${formatSize(entry.size)}  ${time}`;
    case "link":
      return `${name} -> ${entry.target ?? "?"}  ${time}`;
    default:
      return `${name}  ${time}`;
  }
}

/** Absolute UTC minute, `YYYY-MM-DD HH:MM`: the same text on every run and machine. */
export function formatTime(mtimeMs: number): string {
  const iso = new Date(Math.floor(mtimeMs)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

const SIZE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/**
 * Compact size in powers of 1024: `512B`, `1.5KB`, `2.3MB`. One decimal below
 * 10 of a unit (none when it is `.0`), whole numbers from 10 up.
 */
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  let text = value < 10 ? (Math.round(value * 10) / 10).toString() : Math.round(value).toString();
  // Rounding can reach the next unit (1023.96 KB): say 1MB, not 1024KB.
  if (Number(text) >= 1024 && unit < SIZE_UNITS.length - 1) {
    text = "1";
    unit++;
  }
  return `${text}${SIZE_UNITS[unit]}`;
}

/**
 * A name as one printable line, as every path in the prompt is written
 * ({@link oneLine}), whose spaces cannot pass for the tree's indentation or
 * columns ({@link escapeSpacing}), and which opens no block over the entries
 * after it ({@link lineOpeningNoBlock}: `<!--`, `<pre>`, a fence, review rev56c F8; a
 * heading, a block quote, a list item, review rev57b F2).
 * The prompt escapes the listing's tags of its own elements as a whole.
 */
export const safeName = (name: string): string => lineOpeningNoBlock(escapeSpacing(oneLine(name)));
