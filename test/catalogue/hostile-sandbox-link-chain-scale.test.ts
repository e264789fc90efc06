import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { makeSandbox } from "../../src/author/sandbox.js";
import { tempDir } from "../api/_helpers.js";

// explain --simulate copies the project first, a link to a file inside it
// copied as that file, so each link is resolved. It was resolved by the
// thread pool's realpath (glibc's: one walk of the path per component, over
// again after each link), and the project writes the links: a link to a link
// to … (38) of paths 1,000 folders deep took seconds each, so 40 such links
// kept `explain --simulate --deadline 2000` copying past 60 s (the same
// project without the chain: 2.8 s). Each is now resolved in one walk of
// each path it leads through (realpathSyncLinear): 3.8 s for those 40, 10 s
// for 2,000, so most of a minute at the copy's cap of 10,000 entries: the
// copy now also has a time (MAX_COPY_MS for explain --simulate), past which
// nothing is simulated.

vi.setConfig({ testTimeout: 120_000 });

const DEPTH = 1_000;
const CHAIN = 38;
const LINKS = 20;

/** A project of `links` links to a chain of CHAIN links to a file DEPTH folders deep. */
function chained(links: number): { base: string; project: string } {
  const base = tempDir();
  const project = join(base, "project");
  const deep = join(project, ...Array.from({ length: DEPTH }, () => "d"));
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, "f.txt"), "leaf\n");
  for (let i = 0; i < CHAIN; i++) {
    symlinkSync(join(deep, i === CHAIN - 1 ? "f.txt" : `l${i + 1}`), join(deep, `l${i}`));
  }
  for (let i = 0; i < links; i++) symlinkSync(join(deep, "l0"), join(project, `link${i}`));
  return { base, project };
}

describe("hostile repository: links to a chain of deep links, copied by explain --simulate", () => {
  it("are resolved in one walk each and copied as the file they lead to", async () => {
    const { base, project } = chained(LINKS);

    const started = performance.now();
    const { sandbox, problems } = await makeSandbox(project, join(base, "cache"), new Set(), {
      skipSpecial: true,
    });
    const took = performance.now() - started;
    expect(problems).toEqual([]);
    expect(readFileSync(join(sandbox?.copy ?? "", "link0"), "utf8")).toBe("leaf\n");
    // Before: seconds a link, in a pool of four threads; the copy of the deep folder alone takes ~1 s.
    expect(took).toBeLessThan(8_000);
  });

  it("a copy past its time is refused with one problem, and nothing of it is left", async () => {
    const { base, project } = chained(2_000);
    const cache = join(base, "cache");
    const started = performance.now();
    const { sandbox, problems } = await makeSandbox(project, cache, new Set(), {
      skipSpecial: true,
      signal: AbortSignal.timeout(300),
      timeMs: 300,
    });
    expect(sandbox).toBeUndefined();
    expect(problems).toEqual([
      {
        path: project,
        reason:
          "the copy took longer than 0.3 s: its entries are too many or too slow to resolve (links to links of long paths)",
      },
    ]);
    expect(readdirSync(cache)).toEqual([]);
    // Before: every link copied, 10 s.
    expect(performance.now() - started).toBeLessThan(4_000);
  });
});
