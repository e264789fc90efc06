import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { WatchRender } from "../../src/author/index.js";
import { compare, diffRoom } from "../../src/author/snapshot/_golden.js";
import { formatRender } from "../../src/cli/commands/watch.js";
import type { PreparedPrompt } from "../../src/render-system-prompt.js";
import { createViewBuilder, type ViewInput } from "../../src/serve/_view.js";
import type { RenderResult } from "../../src/types.js";
import { tempDir } from "../api/_helpers.js";

// Each diff of a repository's text stops at 250 ms, but serve's view and
// watch's report diffed every changed section one after another with no
// total: a project's 204 sections of 20 KB, each with a model variant of
// other words, held serve 31 s of CPU for one click of the page's model
// switch (its event loop blocked, Ctrl-C unheard), and 216 sections that
// branch on `git.unstaged` held watch 30 s after one edit. One view's or
// report's diffs now share one diff's 250 ms and 512 Ki characters; past
// them a changed section is shown removed and added whole, and a note says so.

/** Changed sections: about 100 ms of word diff each here, so 10 s or more before the fix. */
const SECTIONS = 100;
/** Characters of each version of a section. */
const SIZE = 20_000;
/** Far above 250 ms and one 512 Ki tokenising on a loaded machine; far below SECTIONS diffs. */
const BOUND_MS = 4000;
/** The case fails, rather than hangs, on the code before the fix. */
const CASE_MS = 120_000;
/** Drifting goldens of a snapshot folder: 10 s or more of line diffs before the fix. */
const GOLDENS = 60;
/** The report's 2 s of diffs, one diff past it, and reading the goldens on a loaded machine. */
const SNAPSHOT_BOUND_MS = 5000;
/** At most this many 40 KB pairs fit the view's 512 Ki characters. */
const MOST_DIFFED = Math.floor((512 * 1024) / (2 * SIZE));

/** `SIZE` characters of words from a 5,000-word vocabulary joined by `sep`, from a seed. */
function words(seed: number, sep: string): string {
  let x = seed;
  const out: string[] = [];
  let size = 0;
  while (size < SIZE) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const word = `w${x % 5000}`;
    out.push(word);
    size += word.length + 1;
  }
  return out.join(sep);
}

/** A render of SECTIONS sections, each text from `seed`. */
function renderOf(seed: number, sep: string): RenderResult {
  const sections = Array.from({ length: SECTIONS }, (_, i) => ({
    name: `s${i}`,
    text: words(seed * 1000 + i + 1, sep),
    source: { layer: "project", path: `/p/.pi/sections/s${i}.md` },
  }));
  return {
    sections,
    blocks: [],
    steps: [],
    text: sections.map((s) => s.text).join("\n\n"),
  } as unknown as RenderResult;
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe("hostile repository: a re-render that changes a hundred sections", () => {
  it(
    "serve's view diffs them within one budget and says which are shown whole",
    () => {
      const previous = renderOf(1, " ");
      const result = renderOf(2, " ");
      // A deadline long past: token counts are estimated, so the time is the diffs'.
      const prepared = {
        templates: [],
        data: { cwd: "/p" },
        deadline: 0,
      } as unknown as PreparedPrompt;
      const build = createViewBuilder();
      const input: ViewInput = {
        count: 0,
        cause: { kind: "start", files: [] },
        ms: 1,
        result: previous,
        prepared,
        diagnostics: [],
        previous: undefined,
        switches: {} as never,
        tools: [],
        tokenizer: "o200k_base",
      };
      // The server's first render, which loads the token counter; then the switch.
      build(input);
      const { value: view, ms } = timed(() =>
        build({ ...input, count: 1, cause: { kind: "options", files: [] }, result, previous }),
      );
      expect(ms).toBeLessThan(BOUND_MS);
      const whole = view.sections.filter((s) => s.diff?.length === 2 && s.diff[0]?.[0] === "-");
      expect(view.sections.every((s) => s.status === "changed")).toBe(true);
      expect(SECTIONS - whole.length).toBeLessThanOrEqual(MOST_DIFFED);
      const note = view.diagnostics.find((d) => d.code === "diff-cut");
      expect(note?.level).toBe("info");
      expect(note?.message).toMatch(
        new RegExp(
          `^${whole.length} changed sections are shown removed and added whole, not word by word: one view's diffs stop after 250 ms and 512 Ki characters together \\(s\\d+, s\\d+, s\\d+, s\\d+, s\\d+ and ${whole.length - 5} more\\)$`,
        ),
      );
    },
    CASE_MS,
  );

  it(
    "watch's report diffs them within one budget and says how many are shown whole",
    () => {
      const previous = renderOf(1, "\n");
      const result = renderOf(2, "\n");
      const render = {
        count: 1,
        changed: ["AGENTS.md"],
        result,
        previous,
        changes: Object.fromEntries(result.sections.map((s) => [s.name, s.text])),
        diagnostics: [],
        ms: 1,
        watching: [],
      } as unknown as WatchRender;
      const id = (s: string) => s;
      const paint = { bold: id, red: id, green: id, cyan: id, level: {} } as never;
      const { value, ms } = timed(() => formatRender(render, (p) => p, paint));
      expect(ms).toBeLessThan(BOUND_MS);
      // A section shown whole is one hunk of all its lines (one more line break each).
      const lines = (s: { text: string }) => s.text.split("\n").length;
      const wholeHunks = result.sections.filter((s, i) => {
        const old = previous.sections[i];
        return old && value.includes(`  @@ -1,${lines(old)} +1,${lines(s)} @@\n`);
      });
      expect(SECTIONS - wholeHunks.length).toBeLessThanOrEqual(MOST_DIFFED);
      const note = value.match(
        /\n\((\d+) changed sections are shown removed and added whole: one report's diffs stop after 250 ms and 512 Ki characters together\)\n/,
      );
      expect(Number(note?.[1])).toBeGreaterThanOrEqual(SECTIONS - MOST_DIFFED);
    },
    CASE_MS,
  );

  it(
    "snapshot's diffs of a folder of drifting goldens share one budget",
    async () => {
      const dir = tempDir();
      const goldens = Array.from({ length: GOLDENS }, (_, i) => {
        const path = join(dir, `g${i}.md`);
        writeFileSync(path, words(i + 1, "\n"));
        return { path, rendered: words(i + 1001, "\n") };
      });
      const room = diffRoom();
      const started = performance.now();
      const got = [];
      for (const { path, rendered } of goldens)
        got.push(await compare(path, "prompt", rendered, room));
      expect(performance.now() - started).toBeLessThan(SNAPSHOT_BOUND_MS);
      expect(got.every((g) => g.status === "changed")).toBe(true);
    },
    CASE_MS,
  );
});
