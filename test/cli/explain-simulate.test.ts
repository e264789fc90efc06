import { cpSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SimulationReport } from "../../src/author/simulate/simulate.js";
import { FIXTURES, tempDir } from "../api/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

/** A dozen renders per run, the session's included: slow on a shared machine. */
const SLOW = 120_000;

function project(): string {
  const root = tempDir();
  cpSync(join(FIXTURES, "simulate", "small-project"), join(root, "project"), { recursive: true });
  mkdirSync(join(root, "project", ".git"));
  return root;
}

/** The cells of a table line: columns are two or more spaces apart. */
const cells = (line: string) => line.trim().split(/ {2,}/);

describe("sysprompt explain --simulate", () => {
  it(
    "prints a row per action with the figures of --json, and copies the project under the cache folder",
    async () => {
      const root = project();
      const json = await cli(root, ["explain", "--simulate", "--tree", "--json"]);
      expect(json.stderr).toBe("");
      expect(json.code).toBe(0);
      const report = JSON.parse(json.stdout) as SimulationReport;
      const text = await cli(root, ["explain", "--simulate", "--tree"]);
      expect(text.code).toBe(0);
      const lines = text.stdout.split("\n");
      const b = report.baseline;
      expect(lines.slice(0, 3)).toEqual([
        `simulated in a temporary copy of ${join(root, "project")} (the project is not written); tokens are an o200k_base estimate`,
        `baseline: ${b.bytes} bytes, ~${b.tokens} tokens: stable ~${b.byClass.stable.tokens}, session ~${b.byClass.session.tokens}, volatile ~${b.byClass.volatile.tokens}`,
        "",
      ]);
      expect(cells(lines[3] ?? "")).toEqual([
        "ACTION",
        "CHANGED",
        "PREFIX KEPT",
        "BYTES",
        "BROKEN AT",
        "STABLE",
        "SESSION",
        "VOLATILE",
        "IN A SESSION",
      ]);
      const rows = lines.slice(4, 4 + report.actions.length).map(cells);
      expect(rows.map((r) => r.slice(0, 2))).toEqual([
        ["source file edited", "src/main.ts"],
        ["file added", "src/simulated-new-file.ts"],
        ["folder added", "simulated-new-folder/"],
        ["the next day", "now 2026-01-16T10:00:00.000Z"],
        ["tool added", "+grep"],
        ["AGENTS.md edited", "AGENTS.md"],
      ]);
      report.actions.forEach((a, i) => {
        const f = a.fresh;
        const pct = `${Math.floor(f.share * 100)}%`;
        const at = f.brokenAt
          ? `${f.brokenAt.section} (${f.brokenAt.cache}, ${f.brokenAt.how})`
          : "-";
        expect(rows[i]?.slice(2, 8), a.action).toEqual([
          `~${f.tokens} (${pct})`,
          String(f.bytes),
          at,
          `${f.byClass.stable.keptTokens}/${f.byClass.stable.tokens}`,
          `${f.byClass.session.keptTokens}/${f.byClass.session.tokens}`,
          `${f.byClass.volatile.keptTokens}/${f.byClass.volatile.tokens}`,
        ]);
      });
      // With the tree on, an edit breaks the prefix at the tree.
      expect(rows[0]?.[4]).toMatch(/^workspace_tree \(/);
      // The copies were made under the cache folder of the (pinned) home, and are gone.
      expect(readdirSync(join(root, "home", ".cache", "sysprompt", "simulate"))).toEqual([]);
    },
    SLOW,
  );

  it("a bad explicit argument is a usage error, as for explain", async () => {
    const root = project();
    const run = await cli(root, ["explain", "--simulate", "--cwd", "missing"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/missing/);
  });
});
