// `npm run bench`: every measurement of sysprompt against its floor, side by
// side in one run, as one table of ratios, printed and written to
// bench/RESULTS.md with the machine it ran on.
//
//   npm run bench                 everything (builds the 100k-file trees into .bench/ once)
//   npm run bench -- --quick      without the tree suite (seconds instead of minutes)
//   npm run bench -- --only cli   one suite: render, cli, hook, tree, session, session-edits, budget, rules
//   npm run bench -- --no-write   print only; leave bench/RESULTS.md alone
//   npm run bench -- --write-skipped   write bench/RESULTS.md even when rows were skipped
//
// Only a run of every suite with no row skipped rewrites bench/RESULTS.md;
// --quick and --only print their rows and leave the full table there as it is,
// and a skipped row (no valgrind, no tree tool) is named on stderr with its
// reason (bench/_plan.mjs).
//
// Environment: BENCH_CLI_RUNS (30), BENCH_TREE_RUNS (15), BENCH_TREE_FILES
// (100000), BENCH_VALGRIND=0 (no instruction counts), BENCH_MAKE_TREE.
//
// Adding a measurement: write a suite (a function returning rows in the shape
// described in bench/_lib.mjs) and add it to SUITES. Figures are medians of
// alternating repetitions; on a loaded machine wall times move, the ratios
// less, the instruction counts not at all.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatValue, loadAverage, machine, ROOT } from "./_lib.mjs";
import { afterRun, plan } from "./_plan.mjs";
import { budgetSuite } from "./budget.mjs";
import { cliSuite } from "./cli.mjs";
import { hookSuite } from "./hook.mjs";
import { renderSuite } from "./render.mjs";
import { rulesSuite } from "./rules.mjs";
import { sessionSuite } from "./session.mjs";
import { sessionEditsSuite } from "./session-edits.mjs";
import { treeSuite } from "./tree.mjs";

/** Every suite, in table order. `slow` ones are left out by --quick. */
const SUITES = [
  { name: "render", run: renderSuite },
  { name: "cli", run: cliSuite },
  // `sysprompt hook` with nothing new to add, here and on the 100k-file tree (bench/hook.mjs).
  { name: "hook", run: hookSuite, slow: true },
  { name: "tree", run: treeSuite, slow: true },
  // A prompt session's re-render with nothing changed (bench/session.mjs; the 100k-file tree's is in the tree suite).
  { name: "session", run: sessionSuite },
  // A 20-prompt session over the 100k-file tree, one source edit per prompt (bench/session-edits.mjs).
  { name: "session-edits", run: sessionEditsSuite, slow: true },
  // Rendering to fit a token budget, and the tokenizer's first load (bench/budget.mjs).
  { name: "budget", run: budgetSuite },
  // Other agents' rule files: 60 of them in 8 formats (bench/rules.mjs).
  { name: "rules", run: rulesSuite },
];

const args = process.argv.slice(2);
let chosen;
try {
  chosen = plan(args, SUITES, process.env);
} catch (error) {
  console.error(`bench: ${error.message}`);
  process.exit(2);
}

/** Whether a row met its goal: true, false, or undefined when it has none. */
function met(row) {
  if (row.skipped || row.ours?.value === undefined) return undefined;
  if (row.goal !== undefined && row.floor) return row.ours.value / row.floor.value <= row.goal;
  if (row.limit) return row.ours.value <= row.limit.value;
  return undefined;
}

function cells(row) {
  if (row.skipped) return [row.id, row.what, "–", "–", "–", "–", "–", "–", row.skipped];
  const ratio = row.floor ? `${(row.ours.value / row.floor.value).toFixed(2)}×` : "–";
  const goal =
    row.goal !== undefined ? `≤ ${row.goal}×` : row.limit ? `≤ ${formatValue(row.limit)}` : "–";
  const ok = met(row);
  return [
    row.id,
    row.what,
    formatValue(row.ours),
    row.floor ? `${formatValue(row.floor)} (${row.floor.name})` : "–",
    ratio,
    goal,
    ok === undefined ? "–" : ok ? "yes" : "**no**",
    row.rssMb === undefined ? "–" : `${row.rssMb.toFixed(0)} MB`,
    row.note ?? "",
  ];
}

const HEADER = ["id", "measure", "sysprompt", "floor", "ratio", "goal", "met", "peak RSS", "notes"];

function markdownTable(rows) {
  const line = (xs) => `| ${xs.map((x) => String(x).replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(HEADER), line(HEADER.map(() => "---")), ...rows.map((r) => line(cells(r)))].join(
    "\n",
  );
}

function revision() {
  try {
    const rev = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    // The results file itself does not count as a change.
    const dirty = execFileSync(
      "git",
      ["status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/RESULTS.md"],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    return `${rev.trim()}${dirty.trim() ? " (with uncommitted changes)" : ""}`;
  } catch {
    return "unknown";
  }
}

const m = machine();
const loadStart = loadAverage();
const started = new Date();
const rows = [];
for (const suite of chosen.suites) {
  console.error(`bench: ${suite.name} …`);
  rows.push(...(await suite.run()));
}
const loadEnd = loadAverage();

const table = markdownTable(rows);
const heading = [
  `Measured ${started.toISOString().slice(0, 16).replace("T", " ")} UTC at ${revision()}, \`npm run bench${args.length ? ` -- ${args.join(" ")}` : ""}\`.`,
  "",
  `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}. Load average (1, 5, 15 min) at the start ${loadStart}, at the end ${loadEnd}${Number(loadStart.split(" ")[0]) > m.cores / 2 ? ": a shared, loaded machine, so wall times are high and noisy; the ratios, taken from alternating runs, and the instruction counts hold better" : ""}.`,
].join("\n");
console.log(`${heading}\n\n${table}`);
const missed = rows.filter((r) => met(r) === false).map((r) => r.id);
console.log(missed.length ? `\ngoals missed: ${missed.join(", ")}` : "\nevery measured goal met");

if (chosen.partial && !args.includes("--no-write")) {
  console.error(
    "bench: a partial run leaves bench/RESULTS.md as it is; `npm run bench` (every suite) rewrites it",
  );
}
const after = afterRun(rows, chosen, args);
for (const message of after.messages) console.error(message);
if (after.write) {
  const doc = `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.mjs); see docs/benchmarks.md for what each row measures and how to reproduce it.\n\n${heading}\n\n${table}\n`;
  writeFileSync(join(ROOT, "bench", "RESULTS.md"), doc);
  console.error("bench: wrote bench/RESULTS.md");
}
