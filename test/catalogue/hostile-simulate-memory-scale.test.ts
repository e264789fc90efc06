import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// `explain --simulate` kept every render it made: each token counter (and
// its memo of pieces, slices of the render's text) stayed in a list until
// the end, and the baseline kept the whole first render (text, blocks,
// sections, sources). A project of 8 sections of 1,000 KiB, each with one
// "€" (two-byte strings), took 0.93-1.53 GB max RSS (a plain render 163 MB).
// Now only what the report needs of a render (sizes, tokens, a digest of
// each section) outlives its measuring. Here: 2 such sections, 533-594 MB
// before, about 330 MB now (a plain render about 100 MB).

describe("hostile repository: explain --simulate keeps figures, not renders", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("stays within a few times a render's memory", () => {
    const base = tempDir();
    const project = join(base, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, ".pi", "sections"), { recursive: true });
    const body = "word ".repeat((1000 * 1024) / 5);
    for (const k of [0, 1]) {
      writeFileSync(
        join(project, ".pi", "sections", `big${k}.md`),
        `---\norder: ${500 + k}\n---\n€ ${body}\n`,
      );
    }
    const out = spawnSync(
      process.execPath,
      [
        "--import",
        "data:text/javascript,process.on('exit',()=>process.stderr.write('MAXRSS='+process.resourceUsage().maxRSS+'\\n'))",
        BUILT_CLI,
        "explain",
        "--simulate",
        "--json",
      ],
      {
        cwd: project,
        env: { ...process.env, HOME: base, XDG_CACHE_HOME: join(base, "cache") },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 240_000,
      },
    );
    const stderr = out.stderr.toString();
    expect(out.status, stderr).toBe(0);
    const report = JSON.parse(out.stdout.toString());
    // The sections were rendered and simulated: the figures are of a 2 MB prompt.
    expect(report.baseline.bytes).toBeGreaterThan(2 * 1000 * 1024);
    expect(report.actions.length).toBeGreaterThan(0);
    const rss = Number(/MAXRSS=(\d+)/.exec(stderr)?.[1] ?? Number.NaN) * 1024;
    expect(rss).toBeLessThan(450 * 1024 * 1024);
  }, 300_000);
});
