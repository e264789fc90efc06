// Shared pieces of the benchmark suites: medians of alternating runs, child
// processes with their peak memory, instruction counts, the machine, and the
// row every suite returns.
//
// A row (what a suite returns, and what run.mjs prints and writes):
//   {
//     id:       "cli",                         short name, first column
//     what:     "sysprompt render, tiny project",
//     ours:     { value: 105.8, unit: "ms" }  (unit "ms" | "us" | "MB" | "M instr")
//     floor:    { name: "node -e 0", value: 73.4, unit: "ms" }   or undefined
//     goal:     1.5,                          ratio goal (ours / floor <= goal), or undefined
//     limit:    { value: 150, unit: "MB" }    an absolute goal instead (ours <= limit), or undefined
//     rssMb:    52.1,                         peak RSS of ours, when measured
//     note:     "…",                          one line: what else to know (steps, load, skipped)
//   }
// A suite that cannot run returns a row with `skipped: "why"` instead of figures.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg, release, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The published command (bundle + code cache) and the unbundled entry it is made from. */
export const BIN = fileURLToPath(new URL("../dist/src/cli/sysprompt.cjs", import.meta.url));
export const BIN_UNBUNDLED = fileURLToPath(new URL("../dist/src/cli/bin.js", import.meta.url));
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const VALGRIND = spawnSync("valgrind", ["--version"]).status === 0;

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * Runs each function in `cases` ({ name: fn }) for `batches` rounds of `perBatch`
 * calls, alternating the order every round (a b c, c b a, …) after a warm-up, and
 * returns the median microseconds per call of each.
 */
export function alternateCalls(cases, { batches = 21, perBatch = 500 } = {}) {
  const names = Object.keys(cases);
  for (const name of names) for (let i = 0; i < perBatch; i++) cases[name]();
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let b = 0; b < batches; b++) {
    for (const name of b % 2 ? [...names].reverse() : names) {
      const fn = cases[name];
      const start = performance.now();
      for (let i = 0; i < perBatch; i++) fn();
      times[name].push(((performance.now() - start) * 1000) / perBatch);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])]));
}

/** One run of `argv` (with `input` on its stdin): wall milliseconds and stdout; throws on a non-zero exit. */
export function runOnce(argv, { cwd, env, input } = {}) {
  const start = performance.now();
  const out = spawnSync(argv[0], argv.slice(1), {
    cwd,
    env: env ?? process.env,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    ...(input !== undefined ? { input } : {}),
  });
  const ms = performance.now() - start;
  if (out.status !== 0) {
    throw new Error(`${argv.join(" ")} exited ${out.status}: ${out.stderr}`);
  }
  return { ms, stdout: out.stdout, stderr: out.stderr };
}

/**
 * Runs the commands in `commands` ({ name: argv }) `runs` times each, alternating
 * the order every round, after one warm-up run each (the file cache). Returns
 * every run per name ({ name: [{ ms, stdout }] }).
 */
export function alternateRuns(commands, { runs, cwd, env } = {}) {
  const names = Object.keys(commands);
  for (const name of names) runOnce(commands[name], { cwd, env });
  const out = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) {
    for (const name of i % 2 ? [...names].reverse() : names) {
      out[name].push(runOnce(commands[name], { cwd, env }));
    }
  }
  return out;
}

export const wallMedian = (runs) => median(runs.map((r) => r.ms));

/**
 * Peak RSS in MB of `argv` over `runs` runs (the largest), through /usr/bin/time;
 * undefined when that is missing. Separate from the timed runs, so the timing
 * does not include /usr/bin/time's own start.
 */
export function peakRss(argv, { cwd, env, runs = 3 } = {}) {
  if (!TIME) return undefined;
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    const out = spawnSync(TIME, ["-f", "MAXRSS %M", ...argv], {
      cwd,
      env: env ?? process.env,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    const m = /MAXRSS (\d+)/.exec(out.stderr ?? "");
    if (out.status !== 0 || !m) return undefined;
    peak = Math.max(peak, Number(m[1]) / 1024);
  }
  return peak;
}

/**
 * Minor page faults of `argv` (the median of `runs` runs, through /usr/bin/time),
 * undefined when that is missing. A start's first touch of a page of memory is
 * a fault, and on a virtual machine one costs some 10-20 us: with instructions,
 * what a start's wall time is made of.
 */
export function minorFaults(argv, { cwd, env, runs = 5 } = {}) {
  if (!TIME) return undefined;
  const counts = [];
  for (let i = 0; i < runs; i++) {
    const out = spawnSync(TIME, ["-f", "MINFLT %R", ...argv], {
      cwd,
      env: env ?? process.env,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    const m = /MINFLT (\d+)/.exec(out.stderr ?? "");
    if (out.status !== 0 || !m) return undefined;
    counts.push(Number(m[1]));
  }
  return median(counts);
}

/**
 * Instructions (millions) of one run of `argv`, all its processes, counted by
 * valgrind's cachegrind: the same on a loaded machine as on an idle one, where
 * wall time is not. Undefined without valgrind or with BENCH_VALGRIND=0.
 */
export function instructions(argv, { cwd, env, input } = {}) {
  if (!VALGRIND || process.env.BENCH_VALGRIND === "0") return undefined;
  const out = spawnSync(
    "valgrind",
    [
      "--tool=cachegrind",
      "--cache-sim=no",
      "--cachegrind-out-file=/dev/null",
      "--trace-children=yes",
      ...argv,
    ],
    {
      cwd,
      env: env ?? process.env,
      encoding: "utf8",
      maxBuffer: 1 << 28,
      ...(input !== undefined ? { input } : {}),
    },
  );
  let total = 0;
  for (const m of (out.stderr ?? "").matchAll(/I\s+refs:\s+([\d,]+)/g)) {
    total += Number(m[1].replaceAll(",", ""));
  }
  return total > 0 ? total / 1e6 : undefined;
}

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** The machine, for the heading of the results. */
export function machine() {
  let cpu = "unknown CPU";
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpu;
  } catch {
    // Not Linux: the model is not needed for the ratios.
  }
  let os = `${process.platform} ${release()}`;
  try {
    const name = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1];
    if (name) os = `${name} (kernel ${release()})`;
  } catch {
    // Not Linux.
  }
  return {
    cpu,
    cores: availableParallelism(),
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os,
    node: process.version,
  };
}

/** A number with a sensible number of digits for its unit. */
export function formatValue({ value, unit }) {
  if (value === undefined) return "–";
  const digits = unit === "us" || value < 10 ? 1 : 0;
  return `${value.toFixed(value < 1 ? 2 : digits)} ${unit === "us" ? "µs" : unit}`;
}
