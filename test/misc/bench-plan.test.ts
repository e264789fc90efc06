import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { afterRun, plan } from "../../bench/_plan.mjs";

// bench/RESULTS.md is the table of every benchmark row (docs/benchmarks.md): a run of one
// suite must not replace it with that suite's two rows.

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const SUITES = [{ name: "render" }, { name: "cli" }, { name: "tree", slow: true }];
const names = (p: { suites: { name: string }[] }) => p.suites.map((s) => s.name);

describe("npm run bench's plan", () => {
  it("runs every suite and writes bench/RESULTS.md without arguments", () => {
    const p = plan([], SUITES);
    expect({ ...p, suites: names(p) }).toEqual({
      suites: ["render", "cli", "tree"],
      partial: false,
      write: true,
    });
  });

  it("--only, --quick and BENCH_TREE=0 are partial runs: printed, never written", () => {
    for (const [args, env, suites] of [
      [["--only", "render"], {}, ["render"]],
      [["--quick"], {}, ["render", "cli"]],
      [[], { BENCH_TREE: "0" }, ["render", "cli"]],
    ] as const) {
      const p = plan(args, SUITES, env);
      expect({ args, ...p, suites: names(p) }).toEqual({
        args,
        suites,
        partial: true,
        write: false,
      });
    }
  });

  it("--no-write keeps a full run from writing", () => {
    expect(plan(["--no-write"], SUITES).write).toBe(false);
  });

  it("an --only that names no suite is refused with the names, not run as an empty table", () => {
    expect(() => plan(["--only", "rendr"], SUITES)).toThrow(
      '--only needs one of render, cli, tree; there is no suite "rendr"',
    );
    expect(() => plan(["--only"], SUITES)).toThrow("--only needs one of render, cli, tree");
  });
});

describe("what a run does with its rows", () => {
  const full = plan([], SUITES);
  const rows = [
    { id: "render" },
    { id: "tree-git", skipped: "no git" },
    { id: "cli-instr", skipped: "valgrind is not installed (or BENCH_VALGRIND=0)" },
  ];

  it("names every skipped row with its reason, and leaves bench/RESULTS.md as it is", () => {
    expect(afterRun(rows, full, [])).toEqual({
      write: false,
      messages: [
        "bench: skipped tree-git: no git",
        "bench: skipped cli-instr: valgrind is not installed (or BENCH_VALGRIND=0)",
        "bench: 2 rows were skipped, so bench/RESULTS.md is left as it is; `npm run bench -- --write-skipped` writes it anyway",
      ],
    });
  });

  it("--write-skipped writes it anyway; a run without skips writes it; a partial run never", () => {
    expect(afterRun(rows, full, ["--write-skipped"]).write).toBe(true);
    expect(afterRun([{ id: "render" }], full, [])).toEqual({ write: true, messages: [] });
    expect(afterRun(rows.slice(0, 1), plan(["--quick"], SUITES), []).write).toBe(false);
  });
});

describe("bench/run.mjs", () => {
  it("refuses an unknown --only with exit 2 and leaves bench/RESULTS.md as it was", () => {
    const results = join(REPO, "bench", "RESULTS.md");
    const before = readFileSync(results, "utf8");
    const out = spawnSync(process.execPath, [join(REPO, "bench", "run.mjs"), "--only", "rendr"], {
      encoding: "utf8",
    });
    expect({ status: out.status, stdout: out.stdout, stderr: out.stderr }).toEqual({
      status: 2,
      stdout: "",
      stderr:
        'bench: --only needs one of render, cli, hook, tree, session, session-edits, budget, rules; there is no suite "rendr"\n',
    });
    expect(readFileSync(results, "utf8")).toBe(before);
  });
});
