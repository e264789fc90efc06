import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { WatchRender } from "../../src/author/index.js";
import { compare } from "../../src/author/snapshot/_golden.js";
import { renderEjectDiff } from "../../src/cli/commands/eject-diff.js";
import { formatRender } from "../../src/cli/commands/watch.js";
import type { RenderResult } from "../../src/types.js";
import { tempDir } from "../api/_helpers.js";

// A line diff costs the texts' length times the lines that differ. The
// diffs of texts a repository writes had no bound: `watch` diffed a changed
// section whole, and an AGENTS.md of 120,000 short lines (240 KB, under the
// 256 KiB cap) replaced by another held watch over 90 s of CPU with its
// event loop blocked; `snapshot` diffs a golden of the repository's against
// the render, and `eject --diff` its section copy (1 MB: 9.4 s, 320 MB). Each
// diff now stops at DIFF_TIMEOUT_MS and shows the texts removed and added whole.

/** Lines of two texts that share little: 11 to 15 s a diff here before the timeout. */
const LINES = 60_000;
/** Far above the 250 ms timeout plus building the output on a loaded machine. */
const BOUND_MS = 5000;
/** The case fails, rather than hangs, on a diff that does not stop. */
const CASE_MS = 30_000;

function shortLines(seed: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < LINES; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(String(x % 10));
  }
  return `${out.join("\n")}\n`;
}

const OLD = shortLines(1);
const NEW = shortLines(2);

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe("hostile repository: texts whose line diff is quadratic", () => {
  it(
    "watch shows a changed section as removed and added whole, at once",
    () => {
      const section = (text: string) =>
        ({
          sections: [{ name: "project_context", text, source: { layer: "project" } }],
          text,
        }) as unknown as RenderResult;
      const render = {
        count: 1,
        changed: ["AGENTS.md"],
        result: section(NEW),
        previous: section(OLD),
        changes: { project_context: NEW },
        diagnostics: [],
        ms: 1,
        watching: [],
      } as unknown as WatchRender;
      const id = (s: string) => s;
      const paint = { bold: id, red: id, green: id, cyan: id, level: {} } as never;
      const { value, ms } = timed(() => formatRender(render, (p) => p, paint));
      expect(ms).toBeLessThan(BOUND_MS);
      // watch diffs each text with one more line break.
      expect(value).toContain(`  @@ -1,${LINES + 1} +1,${LINES + 1} @@`);
    },
    CASE_MS,
  );

  it(
    "eject --diff shows a section copy against the builtin, at once",
    async () => {
      const text = (t: string, path: string) => ({ path, text: t });
      const started = performance.now();
      const out = await renderEjectDiff(
        {
          name: "rules",
          builtinThen: null,
          builtinNow: text(OLD, "builtin/rules.md"),
          override: text(NEW, ".pi/sections/rules.md"),
          drifted: false,
          diagnostics: [],
        },
        (p) => p,
      );
      expect(performance.now() - started).toBeLessThan(BOUND_MS);
      expect(out).toContain(`@@ -1,${LINES} +1,${LINES} @@`);
    },
    CASE_MS,
  );

  it(
    "snapshot diffs a repository's golden against the render, at once",
    async () => {
      const golden = join(tempDir(), "big.md");
      writeFileSync(golden, OLD);
      const started = performance.now();
      const got = await compare(golden, "prompt", NEW);
      expect(performance.now() - started).toBeLessThan(BOUND_MS);
      expect(got.status).toBe("changed");
      expect(got.diff).toContain(`@@ -1,${LINES} +1,${LINES} @@`);
    },
    CASE_MS,
  );
});
