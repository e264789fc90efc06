// The workspace tree on a 100k-file repository. Builds (once, cached in the
// git-ignored `.bench/`) the trees of ../shared/bench/make-tree.mjs, with and
// without --git, then, with the published command:
//
//   tree-git   `sysprompt render --tree --json` vs `git ls-files -co --exclude-standard`
//              in the --git tree, alternating runs (goal <= 1.4x wall, every step ok), the
//              tree's listing cache warm (src/gather/tree/_listing-cache.ts)
//   tree-git-cold  the same where no listing can be kept (no goal: what the cache saves)
//   tree-find  the same render vs `find DIR -type f` in the tree without .git (goal <= 1.4x)
//   tree-rss   peak RSS of that render (goal <= 150 MB)
//   tree-instr the tree-git pair in instructions (cachegrind, one run each; no goal: the
//              wall-time goal is the one that counts, this shows where the time goes)
//   session-100k  in process, with the tree on: a prompt session's re-render with nothing
//              changed (it stats what the walk read instead of walking) vs a fresh
//              renderSystemPrompt (bench/session.mjs)
//   deadline   `render --tree --json --deadline 50` vs `render --json` (no tree) in the
//              --git tree: the extra wall time must stay within the deadline plus a
//              small constant (goal <= 50 + 100 ms), the tree step marked late and
//              every other section present
//
// Runs: BENCH_TREE_RUNS (default 15) per command. `node bench/tree.mjs` runs
// this part alone (after `npm run build`).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { alternateRuns, BIN, instructions, peakRss, ROOT, wallMedian } from "./_lib.mjs";
import { measureSession, sessionTableRow } from "./session.mjs";

const MAKE_TREE =
  process.env.BENCH_MAKE_TREE ?? join(ROOT, "..", "shared", "bench", "make-tree.mjs");
const CACHE = join(ROOT, ".bench");
const FILES = Number(process.env.BENCH_TREE_FILES ?? 100000);
const RUNS = Number(process.env.BENCH_TREE_RUNS ?? 15);
const DEADLINE_MS = 50;
/** What "a small constant" past the deadline may be: exiting, printing, a loaded machine. */
const DEADLINE_SLACK_MS = 100;

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
  console.error(`building ${dir} (${FILES} files${git ? ", git" : ""}) …`);
  const out = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  if (out.status !== 0) throw new Error(`make-tree.mjs exited ${out.status}`);
  writeFileSync(stamp, key);
  return dir;
}

/** Step statuses over all runs, e.g. "tree ok ×15". */
function stepSummary(runs, only) {
  const counts = new Map();
  for (const run of runs) {
    for (const step of JSON.parse(run.stdout).steps) {
      if (only && !only.includes(step.name)) continue;
      const key = `${step.name} ${step.status}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(", ");
}

const sectionNames = (run) => JSON.parse(run.stdout).sections.map((s) => s.name);

export async function treeSuite() {
  if (!existsSync(MAKE_TREE)) {
    const skipped = `no ${MAKE_TREE} (set BENCH_MAKE_TREE)`;
    return ["tree-git", "tree-find", "session-100k", "deadline"].map((id) => ({
      id,
      what: id,
      skipped,
    }));
  }
  const gitTree = cachedTree("tree-git", true);
  const plainTree = cachedTree("tree-plain", false);
  const agentDir = mkdtempSync(join(tmpdir(), "sysprompt-bench-agent-"));
  // An agent dir whose `cache` is a file: no listing can be kept there, so
  // every render walks as the first one in a repository does.
  const coldAgentDir = mkdtempSync(join(tmpdir(), "sysprompt-bench-cold-"));
  writeFileSync(join(coldAgentDir, "cache"), "");
  try {
    const renderIn = (dir, extra) => [
      process.execPath,
      BIN,
      "render",
      "--agent-dir",
      dir,
      "--json",
      ...extra,
    ];
    // The listing cache is warm after alternateRuns' first, untimed run.
    const render = (...extra) => renderIn(agentDir, extra);
    const renderCold = (...extra) => renderIn(coldAgentDir, extra);
    const git = alternateRuns(
      { ours: render("--tree"), git: ["git", "ls-files", "-co", "--exclude-standard"] },
      { runs: RUNS, cwd: gitTree },
    );
    const cold = alternateRuns(
      { ours: renderCold("--tree"), git: ["git", "ls-files", "-co", "--exclude-standard"] },
      { runs: RUNS, cwd: gitTree },
    );
    const find = alternateRuns(
      { ours: render("--tree"), find: ["find", plainTree, "-type", "f"] },
      { runs: RUNS, cwd: plainTree },
    );
    const deadline = alternateRuns(
      {
        late: render("--tree", "--deadline", String(DEADLINE_MS)),
        plain: render(),
        // The same deadline without the tree: what the machine's load alone costs the other steps.
        plainLate: render("--deadline", String(DEADLINE_MS)),
      },
      { runs: RUNS, cwd: gitTree },
    );
    const gitRss = peakRss(render("--tree"), { cwd: gitTree });
    const plainRss = peakRss(render("--tree"), { cwd: plainTree });
    const expected = sectionNames(deadline.plain[0]);
    const lostIn = (runs) =>
      [
        ...new Set(
          runs.map((r) => {
            const got = new Set(sectionNames(r));
            return expected.filter((n) => !got.has(n)).join(",") || "none";
          }),
        ),
      ].join(" | ");
    const extra = wallMedian(deadline.late) - wallMedian(deadline.plain);
    // A deadline valgrind's slowness cannot reach: the tree must be walked, not cut short.
    const oursInstr = instructions(render("--tree", "--deadline", "600000"), { cwd: gitTree });
    const gitInstr = instructions(["git", "ls-files", "-co", "--exclude-standard"], {
      cwd: gitTree,
    });
    const session = await measureSession(gitTree, { tree: true, batches: 5, perBatch: 3 });
    return [
      {
        id: "tree-git",
        what: `\`render --tree --json\`, ${FILES / 1000}k-file git repository`,
        ours: { value: wallMedian(git.ours), unit: "ms" },
        floor: {
          name: "git ls-files -co --exclude-standard",
          value: wallMedian(git.git),
          unit: "ms",
        },
        goal: 1.4,
        rssMb: gitRss,
        note: `${RUNS} alternating runs, listing cache warm (kept by an earlier render); steps: ${stepSummary(git.ours, ["tree", "context", "environment"])}`,
      },
      {
        id: "tree-git-cold",
        what: "the same with no listing cache (a repository's first render, or every one where the cache cannot be written)",
        ours: { value: wallMedian(cold.ours), unit: "ms" },
        floor: {
          name: "git ls-files -co --exclude-standard",
          value: wallMedian(cold.git),
          unit: "ms",
        },
        rssMb: gitRss,
        note: `no goal: the row shows what the cache saves; steps: ${stepSummary(cold.ours, ["tree"])}`,
      },
      {
        id: "tree-find",
        what: "the same tree as a plain folder (no .git)",
        ours: { value: wallMedian(find.ours), unit: "ms" },
        floor: { name: "find DIR -type f", value: wallMedian(find.find), unit: "ms" },
        goal: 1.4,
        rssMb: plainRss,
        note: `steps: ${stepSummary(find.ours, ["tree"])}`,
      },
      oursInstr && gitInstr
        ? {
            id: "tree-instr",
            what: "tree-git in instructions (cachegrind, one run each)",
            ours: { value: oursInstr, unit: "M instr" },
            floor: {
              name: "git ls-files -co --exclude-standard",
              value: gitInstr,
              unit: "M instr",
            },
            note: "no goal: Node's own start (node -e 0) is about 500 M; git's work is mostly system calls; run with --deadline 600000 so the tree is walked under valgrind",
          }
        : {
            id: "tree-instr",
            what: "tree-git in instructions",
            skipped: "valgrind is not installed (or BENCH_VALGRIND=0)",
          },
      {
        id: "tree-rss",
        what: "peak RSS of `render --tree` on either tree",
        ours: { value: Math.max(gitRss ?? 0, plainRss ?? 0) || undefined, unit: "MB" },
        limit: { value: 150, unit: "MB" },
        note: "/usr/bin/time, 3 runs per tree",
      },
      sessionTableRow("session-100k", "the 100k-file git repository", session, true),
      {
        id: "deadline",
        what: `\`--deadline ${DEADLINE_MS}\` on the git tree: time past the tree-less render`,
        ours: { value: extra, unit: "ms" },
        limit: { value: DEADLINE_MS + DEADLINE_SLACK_MS, unit: "ms" },
        note: `${wallMedian(deadline.late).toFixed(0)} vs ${wallMedian(deadline.plain).toFixed(0)} ms; steps: ${stepSummary(deadline.late, ["tree"])}; sections lost: ${lostIn(deadline.late)} (without the tree at the same deadline: ${lostIn(deadline.plainLate)})`,
      },
    ];
  } finally {
    rmSync(agentDir, { recursive: true, force: true });
    rmSync(coldAgentDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await treeSuite()) console.log(JSON.stringify(row));
}
