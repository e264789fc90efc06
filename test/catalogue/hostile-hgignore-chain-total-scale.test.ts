import { cpSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import { runSnapshots } from "../../src/author/snapshot/snapshot.js";
import { hgIgnoreAround } from "../../src/repo-files/index.js";
import { FIXTURES, pinned, tempDir } from "../api/_helpers.js";
import { hgChain } from "./_hg-chain.js";

// Review rev89h F3: `sysprompt snapshot` built its untrusted reach with no signal, and
// `hgIgnoreAround` gave each Mercurial working copy above the root a budget of its own, so a
// chain of 80 nested copies whose `.hg/hgrc` each name one 250 KiB glob file compiled 80
// programs: 15 s of CPU and 1.38 GB (200 copies: 36 s, 3.1 GB). The copies around one root now
// share a total, and snapshot's and simulate's reaches hear a deadline of their own (the copy's,
// MAX_COPY_MS). Counted here as the lines the reader parses (`parseRegex`, one a pattern).

const parsed = { lines: 0 };
const checks: { root: string; signal: unknown }[] = [];

vi.mock("../../src/repo-files/linear-regex.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/repo-files/linear-regex.js")>();
  return {
    ...actual,
    parseRegex: (...args: Parameters<typeof actual.parseRegex>) => {
      parsed.lines++;
      return actual.parseRegex(...args);
    },
  };
});

vi.mock("../../src/repo-files/private-paths.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/repo-files/private-paths.js")>();
  return {
    ...actual,
    privatePaths: (root: string, o: Parameters<typeof actual.privatePaths>[1]) => {
      checks.push({ root, signal: o?.signal });
      return actual.privatePaths(root, o);
    },
  };
});

const COPIES = 12;

const chain = () => hgChain(COPIES);

describe("hostile-hgignore-chain-total: the working copies around a root share one budget", () => {
  it("a chain of copies naming one heavy file compiles a bounded number of lines, then is cut", async () => {
    const { base, deepest } = chain();
    const before = parsed.lines;
    const copies = await hgIgnoreAround(deepest, { home: join(base, "home"), signal: undefined });
    const lines = parsed.lines - before;
    // A copy's file is parsed up to its own budget, some 2,700 lines: 12 copies were some 32,000
    // lines before the fix; the total stops after about two copies' worth.
    expect(lines).toBeLessThan(10_000);
    expect(copies.some((c) => /past what this reader takes together/.test(c.rules.cut ?? ""))).toBe(
      true,
    );
    // Every copy still reads as private: a cut refuses what it is asked (failing closed).
    expect(copies.length).toBeGreaterThan(0);
  }, 60_000);

  it("snapshot's and simulate's private-path checks of the folder they copy hear a signal", async () => {
    const base = tempDir();
    const dir = join(base, "snapshots");
    mkdirSync(join(dir, "project", ".git"), { recursive: true });
    writeFileSync(join(dir, "a.scenario.yaml"), "cwd: project\nnoContextFiles: true\n");
    checks.length = 0;
    await runSnapshots(dir, { sandboxDir: join(base, "cache"), update: true });
    const copied = checks.filter((c) => c.root === realpathSync(dir));
    expect(copied.length).toBeGreaterThan(0);
    for (const c of copied) expect(c.signal).toBeInstanceOf(AbortSignal);

    const root = tempDir();
    cpSync(join(FIXTURES, "simulate", "small-project"), join(root, "project"), { recursive: true });
    mkdirSync(join(root, "project", ".git"));
    checks.length = 0;
    await simulatePrompt(pinned(root), { sandboxDir: join(root, "sandboxes"), session: false });
    const simulated = checks.filter((c) => c.root === realpathSync(join(root, "project")));
    expect(simulated.length).toBeGreaterThan(0);
    for (const c of simulated) expect(c.signal).toBeInstanceOf(AbortSignal);
  }, 120_000);
});
