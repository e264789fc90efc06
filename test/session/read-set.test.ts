import { mkdirSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kindOfPath, readTextFile, realpathOrSelf } from "../../src/_fs.js";
import { lstatKind, recordReads } from "../../src/_io.js";
import { listMarkdown } from "../../src/sections/load.js";
import { createReadSet, type ReadSet, readSetChanged } from "../../src/session/_read-set.js";
import { tempDir } from "../api/_helpers.js";

const PAST = new Date("2025-06-01T00:00:00Z");

/**
 * The settle time of these tests, but for the one about it: their files were
 * just written, so with any real settle time every stat would be distrusted.
 * Every edit here changes a size, an inode or an mtime, so trusting is safe.
 */
const TRUST_EVERY_STAT = Number.NEGATIVE_INFINITY;

/** A folder with a file and a sub-folder holding one, their mtimes pinned in the past. */
function fixture() {
  const dir = tempDir();
  mkdirSync(join(dir, "sections"));
  writeFileSync(join(dir, "sections", "rules.md"), "rules\n");
  writeFileSync(join(dir, "AGENTS.md"), "hello\n");
  for (const p of [
    join(dir, "sections", "rules.md"),
    join(dir, "sections"),
    join(dir, "AGENTS.md"),
  ])
    utimesSync(p, PAST, PAST);
  return dir;
}

/** Reads like a loader: a file, a missing file, a folder listing, a resolved path. */
async function gather(dir: string, set: ReadSet) {
  return recordReads(set, async () => {
    await readTextFile(join(dir, "AGENTS.md"));
    await kindOfPath(join(dir, "CLAUDE.md"));
    await listMarkdown(join(dir, "sections"));
    await realpathOrSelf(join(dir, "link"));
  });
}

async function recorded(dir: string, settleMs = TRUST_EVERY_STAT) {
  const set = createReadSet(settleMs);
  await gather(dir, set);
  return set;
}

/** For each edit, on a fixture of its own: whether the set `record` noted before it shows a change. */
async function changedBy(
  edits: ((dir: string) => void)[],
  record: (dir: string) => Promise<ReadSet> = recorded,
): Promise<boolean[]> {
  const seen: boolean[] = [];
  for (const edit of edits) {
    const dir = fixture();
    const set = await record(dir);
    edit(dir);
    seen.push(await readSetChanged(set));
  }
  return seen;
}

describe("recordReads and readSetChanged", () => {
  it("notes every probe, the missing ones too, each path once", async () => {
    const dir = fixture();
    const set = await recorded(dir);
    expect([...set.entries.values()].map((e) => [e.probe, e.path, e.seen.startsWith("!")])).toEqual(
      [
        ["stat", join(dir, "AGENTS.md"), false],
        ["stat-kind", join(dir, "CLAUDE.md"), true],
        ["stat", join(dir, "sections"), false],
        ["realpath", join(dir, "link"), true],
      ],
    );
  });

  it("nothing changed: unchanged", async () => {
    const dir = fixture();
    expect(await readSetChanged(await recorded(dir))).toBe(false);
  });

  it("an edited file, a new file where one was missing, a file added to a listed folder, a deleted file, a new link: changed", async () => {
    const edits: ((dir: string) => void)[] = [
      (dir) => writeFileSync(join(dir, "AGENTS.md"), "hello again\n"),
      (dir) => writeFileSync(join(dir, "CLAUDE.md"), "new\n"),
      (dir) => writeFileSync(join(dir, "sections", "tools.md"), "tools\n"),
      (dir) => unlinkSync(join(dir, "sections", "rules.md")),
      (dir) => unlinkSync(join(dir, "AGENTS.md")),
      (dir) => symlinkSync(join(dir, "AGENTS.md"), join(dir, "link")),
    ];
    expect(await changedBy(edits)).toEqual([true, true, true, true, true, true]);
  });

  it("an edit that keeps the size and puts the mtime back still shows (ctime moves)", async () => {
    const dir = fixture();
    const set = await recorded(dir);
    writeFileSync(join(dir, "AGENTS.md"), "HELLO\n");
    utimesSync(join(dir, "AGENTS.md"), PAST, PAST);
    expect(await readSetChanged(set)).toBe(true);
  });

  it("a path changed within the settle time is not trusted: changed, however often it is asked", async () => {
    const dir = fixture(); // utimes moved every ctime to now
    const fresh = await recorded(dir, 60_000);
    expect([fresh.settled, await readSetChanged(fresh), await readSetChanged(fresh)]).toEqual([
      false,
      true,
      true,
    ]);
    // A missing path has no time to distrust.
    const missing = createReadSet(60_000);
    await recordReads(missing, () => kindOfPath(join(dir, "nothing-here.md")));
    expect([missing.settled, await readSetChanged(missing)]).toEqual([true, false]);
  });

  it("a time ahead of the clock: unsettled once, then trusted while the stat is the one the set before saw", async () => {
    const dir = fixture();
    const future = new Date("2099-01-01T00:00:00Z");
    utimesSync(join(dir, "AGENTS.md"), future, future);
    // A negative settle time stands for a ctime settled long ago; the mtime is far ahead still.
    const settle = -1;
    const first = await recorded(dir, settle);
    const second = createReadSet(settle, first);
    await gather(dir, second);
    expect([first.settled, second.settled, await readSetChanged(second)]).toEqual([
      false,
      true,
      false,
    ]);
    // An edit that puts the future mtime back moves ctime: not the stat the set before saw.
    writeFileSync(join(dir, "AGENTS.md"), "HELLO\n");
    utimesSync(join(dir, "AGENTS.md"), future, future);
    const third = createReadSet(settle, second);
    await gather(dir, third);
    expect([third.settled, await readSetChanged(second)]).toEqual([false, true]);
    // Within the settle time, a set before that saw the same stat does not make it trusted.
    const recent = createReadSet(60_000, first);
    await gather(dir, recent);
    expect(recent.settled).toBe(false);
  });

  it("a path asked only what it is: unchanged while it stays that kind, changed when it becomes another", async () => {
    /** Asks what `sections` (followed) and the fixture folder itself (not followed) are. */
    const kinds = async (dir: string, settleMs = TRUST_EVERY_STAT) => {
      const set = createReadSet(settleMs);
      await recordReads(set, async () => {
        await kindOfPath(join(dir, "sections"));
        await lstatKind(dir);
      });
      return set;
    };
    // New entries move both folders' times (to now, well within the settle time): the kinds stay.
    const dir = fixture();
    const set = await kinds(dir, 60_000);
    writeFileSync(join(dir, "sections", "tools.md"), "tools\n");
    writeFileSync(join(dir, "notes.txt"), "notes\n");
    expect([set.settled, await readSetChanged(set)]).toEqual([true, false]);
    // A folder replaced by a file, by a link, or gone: changed.
    const edits: ((dir: string) => void)[] = [
      (dir) => {
        rmSync(join(dir, "sections"), { recursive: true });
        writeFileSync(join(dir, "sections"), "a file now\n");
      },
      (dir) => {
        rmSync(join(dir, "sections"), { recursive: true });
        symlinkSync(join(dir, "AGENTS.md"), join(dir, "sections"));
      },
      (dir) => rmSync(join(dir, "sections"), { recursive: true }),
    ];
    expect(await changedBy(edits, (dir) => kinds(dir))).toEqual([true, true, true]);
  });

  it("a recording that ends does not cut off one still under way", async () => {
    const dir = fixture();
    const [short, long] = [createReadSet(TRUST_EVERY_STAT), createReadSet(TRUST_EVERY_STAT)];
    let shortDone: () => void = () => undefined;
    const shortEnded = new Promise<void>((resolve) => {
      shortDone = resolve;
    });
    await Promise.all([
      recordReads(short, async () => {
        await kindOfPath(join(dir, "AGENTS.md"));
      }).then(() => shortDone()),
      recordReads(long, async () => {
        await shortEnded;
        await new Promise((r) => setTimeout(r, 5));
        await readTextFile(join(dir, "sections", "rules.md"));
      }),
    ]);
    expect([short, long].map((s) => [...s.entries.values()].map((e) => e.path))).toEqual([
      [join(dir, "AGENTS.md")],
      [join(dir, "sections", "rules.md")],
    ]);
    // And after both, nothing records (and the storage is off again).
    const after = createReadSet(TRUST_EVERY_STAT);
    await readTextFile(join(dir, "AGENTS.md"));
    expect(after.entries.size).toBe(0);
  });

  it("reads outside recordReads are not noted, and parallel recordings stay apart", async () => {
    const dir = fixture();
    const outside = createReadSet(TRUST_EVERY_STAT);
    await readTextFile(join(dir, "AGENTS.md"));
    const [a, b] = [createReadSet(TRUST_EVERY_STAT), createReadSet(TRUST_EVERY_STAT)];
    await Promise.all([
      recordReads(a, () => readTextFile(join(dir, "AGENTS.md"))),
      recordReads(b, () => kindOfPath(join(dir, "sections"))),
    ]);
    expect([outside, a, b].map((s) => [...s.entries.values()].map((e) => e.path))).toEqual([
      [],
      [join(dir, "AGENTS.md")],
      [join(dir, "sections")],
    ]);
  });
});
