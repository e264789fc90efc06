// Fitting a token budget (`maxPromptTokens`) on a prompt with a workspace tree
// of ~600 files that must be cut, vs the same prompt rendered without a budget
// (warm tokenizer; reported, no goal), and the tokenizer's one-time load in a
// fresh process.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { alternateCalls, median, ROOT } from "./_lib.mjs";

/** A project with a workspace tree of 24 folders x (20 files + a subfolder of 5): ~600 entries. */
function treeProject(root) {
  const project = join(root, "tree-project");
  for (let d = 0; d < 24; d++) {
    const dir = join(project, `pkg${String(d).padStart(2, "0")}`);
    mkdirSync(join(dir, "lib"), { recursive: true });
    for (let f = 0; f < 20; f++) writeFileSync(join(dir, `file${f}.ts`), "x".repeat(f * 10));
    for (let f = 0; f < 5; f++) writeFileSync(join(dir, "lib", `part${f}.ts`), "y");
  }
  writeFileSync(join(project, "AGENTS.md"), "# Big\n\nRun the tests.\n");
  mkdirSync(join(root, "agent"));
  return project;
}

/** The tokenizer's first load, in a fresh process: what a CLI run with --max-tokens pays once. */
function tokenizerLoad() {
  const url = pathToFileURL(join(ROOT, "dist/src/budget/tokens.js")).href;
  const code = `const m = await import(${JSON.stringify(url)}); const t = performance.now(); m.o200kCounter()("x"); console.log(performance.now() - t);`;
  const times = [];
  for (let i = 0; i < 5; i++) {
    const out = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
      encoding: "utf8",
    });
    times.push(Number(out.stdout));
  }
  return median(times);
}

export async function budgetSuite() {
  const root = mkdtempSync(join(tmpdir(), "sysprompt-bench-budget-"));
  try {
    const { preparePrompt, renderPrepared } = await import(
      pathToFileURL(join(ROOT, "dist/src/index.js")).href
    );
    const prepared = await preparePrompt({
      cwd: treeProject(root),
      agentDir: join(root, "agent"),
      home: root,
      env: {},
      now: "2026-01-15T10:00:00Z",
      environment: [{ label: "Operating system", value: "Linux" }],
      workspaceTree: true,
    });
    // A budget the tree must give way to: what fitting costs on top of a render.
    const { budget: probe } = renderPrepared({ ...prepared, maxPromptTokens: 1e9 });
    const maxPromptTokens = Math.round(probe.initialTokens * 0.7);
    const fitted = renderPrepared({ ...prepared, maxPromptTokens });
    const times = alternateCalls(
      {
        budgeted: () => renderPrepared({ ...prepared, maxPromptTokens }),
        unbudgeted: () => renderPrepared(prepared),
      },
      { batches: 11, perBatch: 20 },
    );
    return [
      {
        id: "budget",
        what: `budget fit: ${probe.initialTokens} -> ${fitted.budget.tokens} tokens (budget ${maxPromptTokens}), ~600-file tree`,
        ours: { value: times.budgeted / 1000, unit: "ms" },
        floor: { name: "the same render, no budget", value: times.unbudgeted / 1000, unit: "ms" },
        note: `warm tokenizer; cuts: ${fitted.budget.cuts.map((c) => c.detail).join("; ")}`,
      },
      {
        id: "tokenizer",
        what: "first load of the o200k_base tokenizer (once per process, only with a budget)",
        ours: { value: tokenizerLoad(), unit: "ms" },
        note: "median of 5 fresh processes",
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
