import * as fs from "node:fs";
import { kindOfStats, type Observation, ownerText, type Probe, type ReadRecorder } from "../_io.js";
import { pace } from "../_pace.js";
import { realpathSyncLinear } from "../_realpath.js";

/**
 * How long after its last change a file's stat is trusted to show the next
 * change. File times are coarse (a clock tick of some milliseconds on Linux, a
 * second or two on HFS+ and FAT): a file edited twice within one tick, with
 * the same size, keeps the stat it had after the first edit. So an entry
 * changed less than this before it was looked at is not trusted (git calls it
 * "racily clean"): its step runs again on the next render, until its stat has
 * settled. Two seconds covers FAT's granularity; the price is that a file
 * edited moments ago is re-read once more.
 */
export const DEFAULT_SETTLE_MS = 2000;

/** One observation, as its probe saw it. */
interface ReadEntry {
  probe: Probe;
  path: string;
  seen: string;
}

/**
 * What one gathering step looked at: every path it stat'ed, read, listed or
 * resolved (a folder's listing is its stat: its mtime changes whenever an
 * entry is added, removed or renamed), the paths it looked up and found
 * missing included, each with the first answer it got.
 */
export interface ReadSet extends ReadRecorder {
  readonly entries: ReadonlyMap<string, ReadEntry>;
  /** False when an entry had changed too recently to be trusted (see {@link DEFAULT_SETTLE_MS}). */
  readonly settled: boolean;
}

/**
 * An empty read set; entries changed less than `settleMs` before they were
 * looked at leave it unsettled. A time more than `settleMs` ahead of the clock
 * (a tarball packed on a skewed clock: `tar x` keeps mtimes) is no edit of
 * now: it leaves the set unsettled once, and is trusted when `before`, the
 * step's previous read set, saw the same stat (an edit moves ctime).
 */
export function createReadSet(settleMs: number = DEFAULT_SETTLE_MS, before?: ReadSet): ReadSet {
  const entries = new Map<string, ReadEntry>();
  const set = {
    entries,
    settled: true,
    has: (probe: Probe, path: string) => entries.has(keyOf(probe, path)),
    note(probe: Probe, path: string, seen: Observation, startedAt: number) {
      const key = keyOf(probe, path);
      if (entries.has(key)) return;
      const entry = { probe, path, seen: describe(seen) };
      entries.set(key, entry);
      if (!("stats" in seen)) return;
      const times = [seen.stats.mtimeMs, seen.stats.ctimeMs];
      // Floored: a file written before `startedAt` has a time in its millisecond or before.
      const ahead = startedAt + Math.max(settleMs, 0);
      if (times.some((t) => t > startedAt - settleMs && t <= ahead)) {
        set.settled = false;
      } else if (times.some((t) => Math.floor(t) > ahead)) {
        if (before?.entries.get(key)?.seen !== entry.seen) set.settled = false;
      }
    },
  };
  return set;
}

function keyOf(probe: Probe, path: string): string {
  return `${probe}\0${path}`;
}

/**
 * An observation as a comparable string. A stat is its type and permissions,
 * device and inode (a file replaced by another), size, mtime and ctime (any
 * write, rename or chmod moves ctime, even when mtime is set back).
 */
function describe(seen: Observation): string {
  if ("error" in seen) return `!${seen.error}`;
  if ("text" in seen) return `=${seen.text}`;
  const s = seen.stats;
  return `${s.mode}:${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
}

/** Repeats a stat-like probe through the thread pool, never throwing: the answer is what it gives or why it failed. */
function statAgain(entry: ReadEntry): Promise<string> {
  return new Promise((done) => {
    const answer = (error: NodeJS.ErrnoException | null, value: fs.Stats | string) => {
      if (error) done(describe({ error: error.code ?? "EUNKNOWN" }));
      else done(describe(typeof value === "string" ? { text: value } : { stats: value }));
    };
    switch (entry.probe) {
      case "stat":
        fs.stat(entry.path, answer);
        break;
      case "lstat":
        fs.lstat(entry.path, answer);
        break;
      case "stat-kind":
        fs.stat(entry.path, (error, stats) => answer(error, error ? "" : kindOfStats(stats)));
        break;
      case "lstat-kind":
        fs.lstat(entry.path, (error, stats) => answer(error, error ? "" : kindOfStats(stats)));
        break;
      case "stat-owner":
        fs.stat(entry.path, (error, stats) => answer(error, error ? "" : ownerText(stats)));
        break;
      case "lstat-owner":
        fs.lstat(entry.path, (error, stats) => answer(error, error ? "" : ownerText(stats)));
        break;
      default:
        done(lookUpAgain(entry));
    }
  });
}

/**
 * Repeats a probe made on this thread (`realpath`, `readlink`), never throwing.
 * Synchronous: the linear walk that recorded it (src/_realpath.ts), since
 * glibc's realpath, which fs.realpath.native calls, took seconds a call on a
 * repository's chain of links. Each still costs up to a millisecond on such a
 * chain, so {@link readSetChanged} makes them one at a time, in slices.
 */
function lookUpAgain(entry: ReadEntry): string {
  try {
    const text =
      entry.probe === "realpath"
        ? realpathSyncLinear(entry.path)
        : fs.readlinkSync(entry.path, "utf8");
    return describe({ text });
  } catch (error) {
    return describe({ error: (error as NodeJS.ErrnoException).code ?? "EUNKNOWN" });
  }
}

/** The probes repeated on this thread rather than through the thread pool. */
const ON_THREAD = new Set<Probe>(["realpath", "readlink"]);

/**
 * True when any probe in `set` now gives another answer than it gave, or the
 * set was not settled. Nothing is opened or listed, only stat'ed and
 * resolved, and the answer comes with the first difference. Stats run in
 * parallel through the thread pool. Real paths and links are resolved on
 * this thread, one at a time in the slices of src/_pace.ts, and none after
 * the answer: a repository that turns the thousand rule files a render read
 * into links along a chain of 40 links of 4,000-character paths between two
 * turns made one check of them a second of work with the event loop stopped,
 * the deadline unheard, and went on after the first difference had decided it.
 */
export function readSetChanged(set: ReadSet): Promise<boolean> {
  if (!set.settled) return Promise.resolve(true);
  const entries = [...set.entries.values()];
  if (entries.length === 0) return Promise.resolve(false);
  return new Promise((done) => {
    let pending = entries.length;
    let answered = false;
    const seenAgain = (entry: ReadEntry, seen: string) => {
      if (answered) return;
      if (seen !== entry.seen) {
        answered = true;
        done(true);
      } else if (--pending === 0) {
        answered = true;
        done(false);
      }
    };
    const onThread: ReadEntry[] = [];
    for (const entry of entries) {
      if (ON_THREAD.has(entry.probe)) onThread.push(entry);
      else void statAgain(entry).then((seen) => seenAgain(entry, seen));
    }
    void (async () => {
      for (const entry of onThread) {
        const turn = pace();
        if (turn) await turn;
        if (answered) return;
        seenAgain(entry, lookUpAgain(entry));
      }
    })();
  });
}
