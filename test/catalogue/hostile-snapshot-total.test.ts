import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SNAPSHOT_MS, runSnapshots } from "../../src/author/snapshot/snapshot.js";
import { tempDir } from "../api/_helpers.js";

// snapshot rendered every scenario of a folder one after another, each with
// no deadline: a repository's snapshots/ holding thousands of scenario files
// (the copy allows 10,000) kept `sysprompt snapshot` busy for as long as
// they took, with no total, where check's matrix and loading have one. A
// run now has MAX_SNAPSHOT_MS for all its scenarios (and hears a caller's
// signal); each scenario left is an error at its file, never compared or
// written, so the run fails.

describe("hostile repository: snapshot's scenarios under one total", () => {
  it("a scenario the total (here, a signal already given) leaves is an error at its file", async () => {
    const base = tempDir();
    const dir = join(base, "snapshots");
    mkdirSync(join(dir, "project", ".git"), { recursive: true });
    for (const name of ["a", "b", "c"]) {
      writeFileSync(join(dir, `${name}.scenario.yaml`), "cwd: project\nnoContextFiles: true\n");
    }
    const report = await runSnapshots(dir, {
      sandboxDir: join(base, "cache"),
      update: true,
      signal: AbortSignal.abort(),
    });
    expect(report.ok).toBe(false);
    expect(report.counts.error).toBe(3);
    const message = `not rendered: snapshot stops after ${MAX_SNAPSHOT_MS / 1000} s for all its scenarios together (or when its caller stops it); render this one alone by naming its file`;
    expect(report.scenarios.map((s) => s.errors)).toEqual(
      ["a", "b", "c"].map((name) => [{ path: join(dir, `${name}.scenario.yaml`), message }]),
    );
    // Nothing written with --update for a scenario not rendered.
    const written = await runSnapshots(dir, { sandboxDir: join(base, "cache") });
    expect(written.counts.missing).toBe(3);
  });
});
