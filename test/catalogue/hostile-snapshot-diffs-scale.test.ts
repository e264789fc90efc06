import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_SNAPSHOT_DIFF_CHARS, runSnapshots } from "../../src/author/snapshot/snapshot.js";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// `sysprompt snapshot` kept every drifted scenario's diff for its report: a
// repository's snapshots/ with one project of 8 sections of 1,000 KiB (within
// every cap) and 150 scenarios whose goldens do not match held 150 diffs of
// the whole 8 MB prompt (over the size a diff is tried on, it is the texts
// whole): 3.0 GB max RSS, then "cannot write to stdout: write ENOBUFS"; with
// --json, 70 of them threw RangeError: Invalid string length. The report now
// holds MAX_SNAPSHOT_DIFF_CHARS of diffs in all; a drift past it is
// summarised (sizes, first differing line). Here: 16 scenarios over a 2 MB
// prompt (32 MB of diffs before).

const SCENARIOS = 16;
const SECTION = `${"word ".repeat((1000 * 1024) / 5)}\n`;

function repository(): { base: string; dir: string } {
  const base = tempDir();
  const dir = join(base, "snapshots");
  mkdirSync(join(dir, "proj", ".pi", "sections"), { recursive: true });
  for (const k of [0, 1]) {
    writeFileSync(
      join(dir, "proj", ".pi", "sections", `big${k}.md`),
      `---\norder: ${500 + k}\n---\n${SECTION}`,
    );
  }
  for (let i = 0; i < SCENARIOS; i++) {
    const name = `s${String(i).padStart(2, "0")}`;
    writeFileSync(join(dir, `${name}.scenario.yaml`), `cwd: proj\nagentName: "agent ${i}"\n`);
    writeFileSync(join(dir, `${name}.md`), "x\n");
  }
  return { base, dir };
}

/** The CLI's run: its output's size and its max RSS in bytes (as the process saw it at exit). */
function cli(args: string[], cwd: string, home: string) {
  const out = spawnSync(
    process.execPath,
    [
      "--import",
      "data:text/javascript,process.on('exit',()=>process.stderr.write('MAXRSS='+process.resourceUsage().maxRSS+'\\n'))",
      BUILT_CLI,
      ...args,
    ],
    {
      cwd,
      env: { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, "cache") },
      maxBuffer: 512 * 1024 * 1024,
      timeout: 240_000,
    },
  );
  const rss = Number(/MAXRSS=(\d+)/.exec(out.stderr.toString())?.[1] ?? Number.NaN) * 1024;
  return { status: out.status, stdout: out.stdout.toString(), stderr: out.stderr.toString(), rss };
}

describe("hostile repository: snapshot's diffs under one total", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("the report holds at most MAX_SNAPSHOT_DIFF_CHARS of diffs; the rest are summarised", async () => {
    const { base, dir } = repository();
    const report = await runSnapshots(dir, { sandboxDir: join(base, "cache") });
    expect(report.counts.drift).toBe(SCENARIOS);
    const files = report.scenarios.flatMap((s) => s.files);
    const held = files.reduce((n, f) => n + (f.diff?.length ?? 0), 0);
    expect(held).toBeLessThanOrEqual(MAX_SNAPSHOT_DIFF_CHARS);
    const prompts = files.filter((f) => f.kind === "prompt");
    expect(prompts).toHaveLength(SCENARIOS);
    for (const file of prompts) {
      // Each drift says it differs: a diff, or its sizes and where it starts.
      expect(file.status).toBe("changed");
      if (file.diff === undefined) {
        expect(file.summary?.goldenBytes).toBe(2);
        expect(file.summary?.renderedBytes).toBeGreaterThan(2 * 1000 * 1024);
        expect(file.summary?.firstDifferingLine).toBe(1);
      }
    }
    expect(prompts.filter((f) => f.summary).length).toBeGreaterThan(SCENARIOS / 2);
  }, 240_000);

  it("the CLI's report, text and --json, stays small and the run ends without a crash", () => {
    const { base, dir } = repository();
    const project = join(dir, "..");
    for (const json of [false, true]) {
      const run = cli(["snapshot", ...(json ? ["--json"] : [])], project, base);
      expect(run.stderr).not.toMatch(/RangeError|ENOBUFS|at .*\.js:\d+/);
      expect(run.status).toBe(1);
      // 16 whole-prompt diffs were 33 MB; now the total and the lines around it.
      expect(run.stdout.length).toBeLessThan(6 * 1024 * 1024);
      if (json) {
        const report = JSON.parse(run.stdout);
        expect(report.counts.drift).toBe(SCENARIOS);
      } else {
        expect(run.stdout).toContain("first differing at line 1");
        expect(run.stdout).toContain(`${SCENARIOS} drifted`);
      }
      // A render of the 2 MB prompt, not 16 diffs of it held and printed.
      expect(run.rss).toBeLessThan(400 * 1024 * 1024);
    }
  }, 480_000);
});
