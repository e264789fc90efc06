import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { openPromptSession } from "../../src/session/session.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A prompt session re-runs a step when a file it read changed less than the
// settle time before it was read (an edit within one tick of the file times
// keeps the stat). A project unpacked from a tarball packed on a skewed clock
// (`tar x` keeps mtimes) carries times in the future, which stayed "changed
// moments ago" for ever: every render re-ran every step that read them, 3,000
// skills at full cost each turn (1.8-2.4 s, against 0.3-0.8 s with present
// times). A time ahead of the clock now costs one render more: from the next
// on, it is trusted while the stat stays the same.

/** Every file the gathering opens (stats are what a session checks instead). */
const io = vi.hoisted(() => ({ opened: [] as string[] }));

vi.mock("../../src/_io.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/_io.js")>();
  return {
    ...actual,
    readFile: (path: string, ...rest: unknown[]) => {
      io.opened.push(path);
      return (actual.readFile as (...args: unknown[]) => unknown)(path, ...rest);
    },
    open: (path: string, ...rest: unknown[]) => {
      io.opened.push(path);
      return (actual.open as (...args: unknown[]) => unknown)(path, ...rest);
    },
  };
});

/** The session's settle time here: a short one, waited out once the tree is made (its ctimes are now). */
const SETTLE_MS = 100;
const FUTURE = new Date("2099-01-01T00:00:00Z");

function futureProject(): { root: string; agents: string } {
  const root = tempDir();
  const files: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "# Project\n\nRun `npm test` first.\n",
    "project/.pi/skills/pdf/SKILL.md":
      "---\nname: pdf\ndescription: Read tables out of PDF files.\n---\nUse pdftotext.\n",
    "home/.keep": "",
    "agent/.keep": "",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const pin = (p: string) => {
    if (statSync(p).isDirectory()) for (const name of readdirSync(p)) pin(join(p, name));
    utimesSync(p, FUTURE, FUTURE);
  };
  pin(root);
  return { root, agents: join(root, "project", "AGENTS.md") };
}

/** How many times `path` was opened since the last call. */
function openedSince(path: string): number {
  const count = io.opened.filter((p) => p === path).length;
  io.opened.length = 0;
  return count;
}

describe("hostile repository: a project whose files carry times in the future, in a session", () => {
  it("is read again once, then reused while nothing changes; an edit is still seen", async () => {
    const { root, agents } = futureProject();
    await new Promise((done) => setTimeout(done, SETTLE_MS * 2)); // every ctime now settled
    const session = openPromptSession(pinned(root, { deadlineMs: 60_000 }), SETTLE_MS);
    const counts: number[] = [];
    openedSince(agents);
    for (let i = 0; i < 4; i++) {
      const { result } = await session.render();
      expect(result.steps.every((s) => s.status !== "timeout")).toBe(true);
      counts.push(openedSince(agents));
    }
    // The first render reads it, the second once more (its time is ahead), then never again.
    expect(counts).toEqual([1, 1, 0, 0]);
    // An edit moves the mtime to now: read again, and the new words are in the prompt.
    writeFileSync(agents, "# Project\n\nRun `npm run check` first.\n");
    const { result } = await session.render();
    expect(openedSince(agents)).toBe(1);
    expect(result.text).toContain("npm run check");
    session.close();
  });
});
