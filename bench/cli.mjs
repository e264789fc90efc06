// `sysprompt render` on a tiny project vs `node -e 0`: the start-up of the
// published command (dist/src/cli/sysprompt.cjs, the bundle and its code cache).
//
//   cli        wall time, medians of alternating runs (goal <= 1.3x, issue 27)
//   cli-load   the loader alone, in the same alternating runs: the bundle and its
//              code cache read and deserialized, nothing of it run. No goal: it is
//              what any start of the present design pays before the CLI's first
//              line, so `cli` can come no nearer node -e 0 than this
//   cli-instr  the same two commands in instructions (valgrind's cachegrind, one
//              run each): what a loaded machine does not move
//
// Runs: BENCH_CLI_RUNS (default 30) per command.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alternateRuns, BIN, instructions, minorFaults, peakRss, wallMedian } from "./_lib.mjs";

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 30);

function tinyProject() {
  const root = mkdtempSync(join(tmpdir(), "sysprompt-bench-cli-"));
  const project = join(root, "project");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(root, "agent"));
  writeFileSync(join(project, "AGENTS.md"), "# Tiny\n\nRun `npm test` before you commit.\n");
  writeFileSync(join(project, "src", "index.ts"), "export const x = 1;\n");
  return { root, project, agentDir: join(root, "agent") };
}

/** The page-fault note of the cli-load row (its command's median of 5), or "" without /usr/bin/time. */
function loadFaultNote(load, cwd) {
  const faults = minorFaults(load, { cwd });
  return faults === undefined ? "" : `; minor page faults ${faults}`;
}

export function cliSuite() {
  const { root, project, agentDir } = tinyProject();
  try {
    const ours = [process.execPath, BIN, "render", "--cwd", project, "--agent-dir", agentDir];
    const node = [process.execPath, "-e", "0"];
    const load = [process.execPath, "-e", `require(${JSON.stringify(BIN)}).compileBundle()`];
    // The first run probes the GPU and caches the answer in the agent dir, as a user's first run does.
    const runs = alternateRuns({ ours, node, load }, { runs: RUNS, cwd: project });
    const faults = [minorFaults(ours, { cwd: project }), minorFaults(node, { cwd: project })];
    const faultNote = faults.every((f) => f !== undefined)
      ? `; minor page faults ${faults[0]} vs ${faults[1]} (medians of 5)`
      : "";
    const rows = [
      {
        id: "cli",
        what: "`sysprompt render` on a tiny project (wall)",
        ours: { value: wallMedian(runs.ours), unit: "ms" },
        floor: { name: "node -e 0", value: wallMedian(runs.node), unit: "ms" },
        goal: 1.3,
        rssMb: peakRss(ours, { cwd: project }),
        note: `${RUNS} alternating runs each; node -e 0 peak RSS ${peakRss(node)?.toFixed(0) ?? "–"} MB${faultNote}`,
      },
      {
        id: "cli-load",
        what: "the loader alone: `bundle.cjs` and its code cache read and deserialized, nothing run (wall)",
        ours: { value: wallMedian(runs.load), unit: "ms" },
        floor: { name: "node -e 0", value: wallMedian(runs.node), unit: "ms" },
        note: `the same alternating runs as cli; no goal: what any start pays before the CLI's first line${loadFaultNote(load, project)}`,
      },
    ];
    // Under valgrind a render runs some 30 times slower: on a loaded machine its steps missed
    // the 5 s deadline and their fallbacks were counted (some 30 M instructions fewer).
    const oursInstr = instructions([...ours, "--deadline", "600000"], { cwd: project });
    const nodeInstr = instructions(node, { cwd: project });
    rows.push(
      oursInstr && nodeInstr
        ? {
            id: "cli-instr",
            what: "the same, in instructions (cachegrind, one run each)",
            ours: { value: oursInstr, unit: "M instr" },
            floor: { name: "node -e 0", value: nodeInstr, unit: "M instr" },
            goal: 1.5,
            note: "not moved by the machine's load; run with --deadline 600000, so no step is cut under valgrind",
          }
        : {
            id: "cli-instr",
            what: "the same, in instructions",
            skipped: "valgrind is not installed (or BENCH_VALGRIND=0)",
          },
    );
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
