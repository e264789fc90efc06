// The workspace tree on a 100k-file repository: `npm run bench -- --tree`, or
// `node bench/tree.mjs` after `npm run build`. Builds (once, cached in `.bench/`)
// the trees of ../shared/bench/make-tree.mjs, with and without --git, then:
//
//   tree-git   `sysprompt render --tree --json` vs `git ls-files -co --exclude-standard`
//              in the --git tree, alternating runs (goal <= 1.4x wall, every step ok)
//   tree-find  the same render vs `find . -type f` in the tree without .git (goal <= 1.4x)
//   rss        peak RSS of the render (goal <= 150 MB), via /usr/bin/time where present
//   deadline   `render --tree --json --deadline 50` vs `render --json` (no tree):
//              the extra wall time must stay within the deadline plus a small constant,
//              the late step marked and every other section present
//   session    in process, on the --git tree with the tree on: a prompt session's re-render
//              with nothing changed (it stats what the walk read instead of walking) vs a
//              fresh renderSystemPrompt (bench/session.mjs)
//
// Runs: BENCH_TREE_RUNS (default 15) per command; figures are medians. The load
// average is printed: on a shared machine it moves the figures, the ratios less.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureSession, sessionRow } from "./session.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist/src/cli/bin.js");
const MAKE_TREE =
  process.env.BENCH_MAKE_TREE ??
  fileURLToPath(new URL("../../shared/bench/make-tree.mjs", import.meta.url));
const CACHE = join(ROOT, ".bench");
const FILES = Number(process.env.BENCH_TREE_FILES ?? 100000);
const RUNS = Number(process.env.BENCH_TREE_RUNS ?? 15);
const DEADLINE_MS = 50;
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** The tree `make-tree.mjs DIR --files N [--git]` builds, reused while the script and arguments are the same. */
function cachedTree(name, git) {
  const dir = join(CACHE, name);
  const args = [MAKE_TREE, dir, "--files", String(FILES), ...(git ? ["--git"] : [])];
  const key = createHash("sha256")
    .update(readFileSync(MAKE_TREE))
    .update(JSON.stringify(args.slice(2)))
    .digest("hex");
  const stamp = join(CACHE, `${name}.key`);
  if (existsSync(dir) && existsSync(stamp) && readFileSync(stamp, "utf8") === key) return dir;
  mkdirSync(CACHE, { recursive: true });
  console.log(`building ${dir} (${FILES} files${git ? ", git" : ""}) …`);
  const out = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (out.status !== 0) throw new Error(`make-tree.mjs exited ${out.status}`);
  writeFileSync(stamp, key);
  return dir;
}

/** One run: wall ms, peak RSS in MB (when /usr/bin/time is there) and stdout. */
function runOnce(argv, cwd) {
  const [cmd, args] = TIME ? [TIME, ["-f", "MAXRSS %M", ...argv]] : [argv[0], argv.slice(1)];
  const start = performance.now();
  const out = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - start;
  if (out.status !== 0) throw new Error(`${argv.join(" ")} exited ${out.status}: ${out.stderr}`);
  const rss = /MAXRSS (\d+)/.exec(out.stderr ?? "");
  return { ms, rssMb: rss ? Number(rss[1]) / 1024 : undefined, stdout: out.stdout };
}

/** Runs `a` and `b` alternately (a b, b a, …) after one warm-up each; returns every run. */
function alternate(a, b, cwd) {
  runOnce(a, cwd);
  runOnce(b, cwd);
  const runs = { a: [], b: [] };
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 ? ["b", "a"] : ["a", "b"];
    for (const key of order) runs[key].push(runOnce(key === "a" ? a : b, cwd));
  }
  return runs;
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const row = (name, ours, floor, floorName, goal) =>
  `${name.padEnd(9)} ${fmt(ours).padStart(10)}  vs ${floorName.padEnd(36)} ${fmt(floor).padStart(10)}  ratio ${(ours / floor).toFixed(2)}x  (goal <= ${goal}x)`;

/** Step statuses over all runs, e.g. "tree: ok x15". */
function stepSummary(runs) {
  const counts = new Map();
  for (const run of runs) {
    for (const step of JSON.parse(run.stdout).steps) {
      const key = `${step.name}: ${step.status}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts].map(([k, n]) => `${k} x${n}`).join(", ");
}

export async function treeBench() {
  const gitTree = cachedTree("tree-git", true);
  const plainTree = cachedTree("tree-plain", false);
  const agentDir = mkdtempSync(join(tmpdir(), "sysprompt-bench-agent-"));
  try {
    const render = (...extra) => [
      process.execPath,
      BIN,
      "render",
      "--agent-dir",
      agentDir,
      "--json",
      ...extra,
    ];
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(2))
        .join(" ");
    console.log(
      `tree bench (${FILES} files, ${RUNS} alternating runs per pair, medians; load average ${load()})`,
    );

    const git = alternate(
      render("--tree"),
      ["git", "ls-files", "-co", "--exclude-standard"],
      gitTree,
    );
    const find = alternate(render("--tree"), ["find", ".", "-type", "f"], plainTree);
    const deadline = alternate(
      render("--tree", "--deadline", String(DEADLINE_MS)),
      render(),
      gitTree,
    );

    const wall = (runs) => median(runs.map((r) => r.ms));
    const ours = [...git.a, ...find.a];
    console.log(
      row("tree-git", wall(git.a), wall(git.b), "git ls-files -co --exclude-standard", 1.4),
    );
    console.log(`          steps: ${stepSummary(git.a)}`);
    console.log(row("tree-find", wall(find.a), wall(find.b), "find . -type f (no .git)", 1.4));
    console.log(`          steps: ${stepSummary(find.a)}`);
    const rss = ours.map((r) => r.rssMb).filter((x) => x !== undefined);
    console.log(
      rss.length
        ? `rss       peak ${Math.max(...rss).toFixed(1)} MB, median ${median(rss).toFixed(1)} MB over ${rss.length} tree renders  (goal <= 150 MB)`
        : "rss       not measured: /usr/bin/time is missing",
    );
    const names = (run) => JSON.parse(run.stdout).sections.map((s) => s.name);
    const missing = new Set(
      deadline.a.map((r) => {
        const got = new Set(names(r));
        return (
          names(deadline.b[0])
            .filter((n) => !got.has(n))
            .join(",") || "none"
        );
      }),
    );
    console.log(
      `deadline  ${fmt(wall(deadline.a))} with --tree --deadline ${DEADLINE_MS} vs ${fmt(wall(deadline.b))} without the tree: +${fmt(wall(deadline.a) - wall(deadline.b))}  (goal <= ${DEADLINE_MS} ms + a small constant)`,
    );
    console.log(`          steps: ${stepSummary(deadline.a)}`);
    console.log(`          sections of the tree-less prompt missing: ${[...missing].join(" | ")}`);
    console.log(
      sessionRow("session", await measureSession(gitTree, { tree: true, batches: 5, perBatch: 3 })),
    );
    console.log(`          load average at the end ${load()}`);
  } finally {
    rmSync(agentDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await treeBench();
