// `sysprompt hook claude-code` with nothing new to add, vs `node -e 0`: the
// cost the hook puts on every tool call of an agent (goal <= 1.3x).
//
//   hook            a Read in this repository, in a session whose earlier call
//                   already gave what that folder brings (wall, alternating runs)
//   hook-instr      the same in instructions (cachegrind, one run each)
//   hook-tree       the same on the 100k-file tree of make-tree.mjs (built in a
//                   temporary folder), a Read of a file in a folder with an AGENTS.md
//   hook-tree-instr the same in instructions
//
// Each measured call is the session's steady state: a first call (not measured)
// gives the folder's files and keeps the session's snapshot; it is made again
// before the snapshot's 2 minutes run out. The session state goes to a scratch
// XDG_CACHE_HOME. Runs: BENCH_CLI_RUNS (30) per command.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, instructions, median, peakRss, ROOT, runOnce } from "./_lib.mjs";

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 30);
const FILES = Number(process.env.BENCH_TREE_FILES ?? 100000);
const MAKE_TREE =
  process.env.BENCH_MAKE_TREE ??
  [join(ROOT, "..", "shared"), join(ROOT, "..", "..", "shared")]
    .map((dir) => join(dir, "bench", "make-tree.mjs"))
    .find((path) => existsSync(path)) ??
  join(ROOT, "..", "shared", "bench", "make-tree.mjs");
/** Made again after this long: well inside the snapshot's 2 minutes (a valgrind run takes 40 s). */
const REWARM_MS = 15_000;
const NOT_SOURCE = new Set(["node_modules", "dist", "build", ".git", ".cache"]);

function readInput(cwd, file) {
  return JSON.stringify({
    session_id: "bench-session",
    cwd,
    hook_event_name: "PostToolUse",
    tool_name: "Read",
    tool_input: { file_path: file },
    tool_response: { type: "text" },
  });
}

/**
 * Steady-state runs of one hook call against `node -e 0`, alternating, the
 * session warmed by `warm` first and again every {@link REWARM_MS}.
 */
function measure(cwd, warm, call, env) {
  const ours = [process.execPath, BIN, "hook", "claude-code"];
  const node = [process.execPath, "-e", "0"];
  let warmedAt = 0;
  const rewarm = () => {
    if (performance.now() - warmedAt < REWARM_MS) return;
    runOnce(ours, { cwd, env, input: warm });
    warmedAt = performance.now();
  };
  rewarm();
  // The first measured call must add nothing: otherwise this measures something else.
  const first = runOnce(ours, { cwd, env, input: call });
  if (first.stdout !== "") throw new Error(`bench hook: the call added something: ${first.stdout}`);
  const times = { ours: [], node: [] };
  for (let i = 0; i < RUNS; i++) {
    rewarm();
    for (const name of i % 2 ? ["node", "ours"] : ["ours", "node"]) {
      const argv = name === "ours" ? ours : node;
      times[name].push(runOnce(argv, { cwd, env, input: name === "ours" ? call : "" }).ms);
    }
  }
  warmedAt = 0;
  rewarm();
  const oursInstr = instructions(ours, { cwd, env, input: call });
  const nodeInstr = instructions(node, { cwd, env, input: "" });
  return {
    ours: median(times.ours),
    node: median(times.node),
    oursInstr,
    nodeInstr,
    rss: peakRss(ours, { cwd, env, runs: 1 }),
  };
}

function rows(id, what, m, note) {
  return [
    {
      id,
      what: `${what} (wall)`,
      ours: { value: m.ours, unit: "ms" },
      floor: { name: "node -e 0", value: m.node, unit: "ms" },
      goal: 1.3,
      ...(m.rss !== undefined ? { rssMb: m.rss } : {}),
      note: `${RUNS} alternating runs each; ${note}`,
    },
    m.oursInstr && m.nodeInstr
      ? {
          id: `${id}-instr`,
          what: "the same, in instructions (cachegrind, one run each)",
          ours: { value: m.oursInstr, unit: "M instr" },
          floor: { name: "node -e 0", value: m.nodeInstr, unit: "M instr" },
          goal: 1.3,
          note: "not moved by the machine's load",
        }
      : {
          id: `${id}-instr`,
          what: "the same, in instructions",
          skipped: "valgrind is not installed (or BENCH_VALGRIND=0)",
        },
  ];
}

/** A folder of the tree, two or more levels down, with an AGENTS.md and a source file. */
function deepFolder(tree) {
  const queue = [tree];
  for (let i = 0; i < queue.length; i++) {
    const entries = readdirSync(queue[i], { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    );
    const names = entries.map((e) => e.name);
    const source = entries.filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name));
    if (queue[i] !== tree && names.includes("AGENTS.md") && source.length >= 2) {
      return { dir: queue[i], files: source.slice(0, 2).map((e) => join(queue[i], e.name)) };
    }
    for (const e of entries) {
      if (e.isDirectory() && !NOT_SOURCE.has(e.name) && !e.name.startsWith(".")) {
        queue.push(join(queue[i], e.name));
      }
    }
  }
  throw new Error("bench hook: the tree has no folder with an AGENTS.md and two source files");
}

export function hookSuite() {
  const scratch = mkdtempSync(join(tmpdir(), "sysprompt-bench-hook-"));
  const env = { ...process.env, XDG_CACHE_HOME: join(scratch, "cache") };
  try {
    const here = measure(
      ROOT,
      readInput(ROOT, join(ROOT, "src", "hook", "run.ts")),
      readInput(ROOT, join(ROOT, "src", "hook", "input.ts")),
      env,
    );
    const out = rows(
      "hook",
      "`sysprompt hook claude-code`, a Read that adds nothing, this repository",
      here,
      "the session warmed by a Read in the same folder",
    );
    if (!existsSync(MAKE_TREE)) {
      out.push({
        id: "hook-tree",
        what: "hook-tree",
        skipped: `no ${MAKE_TREE} (set BENCH_MAKE_TREE)`,
      });
      return out;
    }
    const tree = join(scratch, "tree");
    console.error(`building ${tree} (${FILES} files) …`);
    const made = spawnSync(process.execPath, [MAKE_TREE, tree, "--files", String(FILES)], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (made.status !== 0) throw new Error(`make-tree.mjs exited ${made.status}`);
    const { dir, files } = deepFolder(tree);
    const [a = "", b = ""] = files;
    const big = measure(tree, readInput(tree, a), readInput(tree, b), env);
    out.push(
      ...rows(
        "hook-tree",
        `the same on the ${FILES / 1000}k-file tree`,
        big,
        `a Read in ${dir.slice(tree.length + 1)}, warmed by a Read there (which gave its AGENTS.md)`,
      ),
    );
    return out;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
