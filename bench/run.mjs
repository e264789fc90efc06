// `npm run bench`: measures sysprompt against its floors in one run and prints ratios.
//
//   render  — the default prompt rendered from prepared data (warm engine) vs the
//             same builtin templates compiled once with plain Handlebars and rendered
//             with the same data and helpers (goal ≤ 1.5×).
//   cli     — `sysprompt render` on a tiny project vs `node -e 0`, wall time per
//             process (goal ≤ 2.5×).
//   budget  — fitting a token budget (`maxPromptTokens`) on a prompt with a
//             workspace tree of ~600 files that must be cut, vs the same prompt
//             rendered without a budget (warm tokenizer; reported, no goal),
//             and the tokenizer's one-time load in a fresh process.
//   session — a prompt session's re-render with nothing changed vs a fresh
//             renderSystemPrompt, on this repository, without and with the workspace
//             tree (bench/session.mjs); the ratio is what a long agent session pays per
//             turn for its prompt, as a share of a fresh render.
//   tree    — opt-in (`npm run bench -- --tree` or BENCH_TREE=1; builds a 100k-file
//             tree once, then takes a few minutes): see bench/tree.mjs.
//
// Figures are medians; the machine's load moves them, the ratios much less.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";
import { builtinHelpers } from "../dist/helpers/index.js";
import { preparePrompt, renderPrepared } from "../dist/src/index.js";
import { measureSession, sessionRow } from "./session.mjs";
import { treeBench } from "./tree.mjs";

const BIN = fileURLToPath(new URL("../dist/src/cli/bin.js", import.meta.url));
const REPO = fileURLToPath(new URL("..", import.meta.url));
const CLI_RUNS = Number(process.env.BENCH_CLI_RUNS ?? 30);
const RENDER_BATCHES = 15;
const RENDERS_PER_BATCH = 400;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Median milliseconds per call of `fn`, over batches. */
function perCall(fn, perBatch = RENDERS_PER_BATCH) {
  for (let i = 0; i < perBatch; i++) fn(); // warm-up: compile caches, JIT
  const batches = [];
  for (let b = 0; b < RENDER_BATCHES; b++) {
    const start = performance.now();
    for (let i = 0; i < perBatch; i++) fn();
    batches.push((performance.now() - start) / perBatch);
  }
  return median(batches);
}

/** Median wall milliseconds of running `node args…`. */
function wall(args, cwd) {
  spawnSync(process.execPath, args, { cwd }); // warm the file cache
  const times = [];
  for (let i = 0; i < CLI_RUNS; i++) {
    const start = performance.now();
    const out = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
    times.push(performance.now() - start);
    if (out.status !== 0)
      throw new Error(`node ${args.join(" ")} exited ${out.status}: ${out.stderr}`);
  }
  return median(times);
}

function tinyProject() {
  const root = mkdtempSync(join(tmpdir(), "sysprompt-bench-"));
  const project = join(root, "project");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(root, "agent"));
  writeFileSync(join(project, "AGENTS.md"), "# Tiny\n\nRun `npm test` before you commit.\n");
  writeFileSync(join(project, "src", "index.ts"), "export const x = 1;\n");
  return { root, project, agentDir: join(root, "agent") };
}

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
  return project;
}

/** The tokenizer's first load, in a fresh process: what a CLI run with --max-tokens pays once. */
function tokenizerLoad() {
  const url = new URL("../dist/src/budget/tokens.js", import.meta.url).href;
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

const fmt = (ms) => `${ms.toFixed(ms < 1 ? 3 : 1)} ms`;
const row = (name, ours, floor, floorName, goal) =>
  `${name.padEnd(8)} ${fmt(ours).padStart(10)}  vs ${floorName.padEnd(22)} ${fmt(floor).padStart(10)}  ratio ${(ours / floor).toFixed(2)}x  (goal <= ${goal}x)`;

const { root, project, agentDir } = tinyProject();
try {
  const options = {
    cwd: project,
    agentDir,
    home: root,
    env: {},
    now: "2026-01-15T10:00:00Z",
    environment: [{ label: "Operating system", value: "Linux" }],
  };
  const prepared = await preparePrompt(options);

  // The floor: the same templates, compiled once by plain Handlebars, rendered and joined.
  const hb = Handlebars.create();
  for (const [name, fn] of Object.entries(builtinHelpers)) hb.registerHelper(name, fn);
  const raw = prepared.templates.map((t) => hb.compile(t.body, { noEscape: true }));
  const rawRender = () => raw.map((template) => template(prepared.data)).join("\n\n");

  const ours = perCall(() => renderPrepared(prepared));
  const floor = perCall(rawRender);

  const cli = wall([BIN, "render", "--cwd", project, "--agent-dir", agentDir], project);
  const node = wall(["-e", "0"], project);

  // A budget the tree must give way to: what fitting costs on top of a render.
  const treePrepared = await preparePrompt({
    ...options,
    cwd: treeProject(root),
    workspaceTree: true,
  });
  const { budget: probe } = renderPrepared({ ...treePrepared, maxPromptTokens: 1e9 });
  const maxPromptTokens = Math.round(probe.initialTokens * 0.7);
  const fitted = renderPrepared({ ...treePrepared, maxPromptTokens });
  const unbudgeted = perCall(() => renderPrepared(treePrepared), 40);
  const budgeted = perCall(() => renderPrepared({ ...treePrepared, maxPromptTokens }), 20);
  const load = tokenizerLoad();

  console.log(`sysprompt bench (node ${process.version}, ${CLI_RUNS} CLI runs, medians)`);
  console.log(row("render", ours, floor, "raw Handlebars render", 1.5));
  console.log(row("cli", cli, node, "node -e 0", 2.5));
  console.log(
    `${"budget".padEnd(8)} ${fmt(budgeted).padStart(10)}  vs ${"render, no budget".padEnd(22)} ${fmt(unbudgeted).padStart(10)}  ratio ${(budgeted / unbudgeted).toFixed(2)}x  (${probe.initialTokens} -> ${fitted.budget.tokens} tokens, budget ${maxPromptTokens}: ${fitted.budget.cuts.map((c) => c.detail).join("; ")})`,
  );
  console.log(
    `${"tokenizer".padEnd(8)} ${fmt(load).padStart(10)}  first load of o200k_base in a fresh process (once per process, only with a budget)`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

console.log(
  "prompt session on this repository (nothing changed; wall and cpu per render, medians)",
);
console.log(sessionRow("session", await measureSession(REPO, { tree: false })));
console.log(sessionRow("session+tree", await measureSession(REPO, { tree: true })));

if (process.argv.includes("--tree") || process.env.BENCH_TREE === "1") await treeBench();
