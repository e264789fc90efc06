// `npm run bench`: measures sysprompt against its floors in one run and prints ratios.
//
//   render  — the default prompt rendered from prepared data (warm engine) vs the
//             same builtin templates compiled once with plain Handlebars and rendered
//             with the same data and helpers (goal ≤ 1.5×).
//   cli     — `sysprompt render` on a tiny project vs `node -e 0`, wall time per
//             process (goal ≤ 2.5×).
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
function perCall(fn) {
  for (let i = 0; i < RENDERS_PER_BATCH; i++) fn(); // warm-up: compile caches, JIT
  const batches = [];
  for (let b = 0; b < RENDER_BATCHES; b++) {
    const start = performance.now();
    for (let i = 0; i < RENDERS_PER_BATCH; i++) fn();
    batches.push((performance.now() - start) / RENDERS_PER_BATCH);
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

  console.log(`sysprompt bench (node ${process.version}, ${CLI_RUNS} CLI runs, medians)`);
  console.log(row("render", ours, floor, "raw Handlebars render", 1.5));
  console.log(row("cli", cli, node, "node -e 0", 2.5));
} finally {
  rmSync(root, { recursive: true, force: true });
}

console.log(
  "prompt session on this repository (nothing changed; wall and cpu per render, medians)",
);
console.log(sessionRow("session", await measureSession(REPO, { tree: false })));
console.log(sessionRow("session+tree", await measureSession(REPO, { tree: true })));

if (process.argv.includes("--tree") || process.env.BENCH_TREE === "1") await treeBench();
