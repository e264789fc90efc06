// A prompt session's re-render when nothing changed vs a fresh renderSystemPrompt, in
// process, on one folder, with or without the workspace tree: the session suite of
// bench/run.mjs (this repository) and a row of bench/tree.mjs (the 100k-file tree). Both sides use the real machine
// (environment detection included), a scratch agent dir and home, and a pinned clock.
// Wall time and CPU time (process.cpuUsage: every thread, the file system's pool too) per
// render are medians over alternating batches; on a loaded machine the CPU figures move less.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPromptSession, renderSystemPrompt } from "../dist/src/index.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Median wall and CPU ms per call of each async function; batches alternate so load hits all alike. */
async function alternatingPerCall(fns, batches, perBatch) {
  for (const fn of fns) await fn(); // warm-up: compile caches, JIT
  const wall = fns.map(() => []);
  const cpu = fns.map(() => []);
  for (let b = 0; b < batches; b++) {
    for (const [i, fn] of fns.entries()) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      for (let k = 0; k < perBatch; k++) await fn();
      wall[i].push((performance.now() - start) / perBatch);
      const used = process.cpuUsage(cpuStart);
      cpu[i].push((used.user + used.system) / 1000 / perBatch);
    }
  }
  return fns.map((_, i) => ({ wall: median(wall[i]), cpu: median(cpu[i]) }));
}

/** Longer than the session's settle time (2 s): files written just before are distrusted until then. */
const SETTLE_WAIT_MS = 2100;

/**
 * `{ fresh, session }`, each `{ wall, cpu }` in ms per render: a fresh renderSystemPrompt, and a
 * session's re-render with nothing changed. Throws if a re-render saw a change, a step was not
 * ok, or the session's text differs from the fresh render's.
 */
export async function measureSession(cwd, { tree, batches = 10, perBatch = 20 }) {
  const scratch = mkdtempSync(join(tmpdir(), "sysprompt-bench-session-"));
  const options = {
    cwd,
    agentDir: scratch,
    home: scratch,
    workspaceTree: tree,
    now: "2026-01-15T10:00:00Z",
  };
  const session = createPromptSession(options);
  try {
    await session.render();
    // The first render wrote the GPU answer into the scratch agent dir: wait until that write
    // is old enough to be trusted, and let the session take the settled state in.
    await new Promise((done) => setTimeout(done, SETTLE_WAIT_MS));
    const first = await session.render();
    const fresh = await renderSystemPrompt(options);
    if (first.result.text !== fresh.text) throw new Error("session and fresh render differ");
    const rerender = async () => {
      const { result, changes } = await session.render();
      if (changes !== undefined)
        throw new Error(`files changed during the bench: ${Object.keys(changes)}`);
      const late = result.steps.filter((s) => s.status === "timeout" || s.status === "failed");
      if (late.length > 0) throw new Error(`steps not ok: ${JSON.stringify(late)}`);
    };
    const [freshMs, sessionMs] = await alternatingPerCall(
      [() => renderSystemPrompt(options), rerender],
      batches,
      perBatch,
    );
    return { fresh: freshMs, session: sessionMs };
  } finally {
    session.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

/** One line: the session's wall time, the fresh render's, their ratio, and the same for CPU time. */
export function sessionRow(name, { fresh, session }) {
  const ratio = (a, b) => `${(a / b).toFixed(3)}x`;
  return `${name.padEnd(12)} ${fmt(session.wall).padStart(10)}  vs fresh renderSystemPrompt ${fmt(fresh.wall).padStart(10)}  ratio ${ratio(session.wall, fresh.wall)}  (cpu ${fmt(session.cpu)} vs ${fmt(fresh.cpu)}: ${ratio(session.cpu, fresh.cpu)})`;
}

/** Rows for bench/run.mjs (shape in bench/_lib.mjs): this repository without and with the tree. */
export async function sessionSuite() {
  const rows = [];
  for (const tree of [false, true]) {
    const m = await measureSession(REPO, { tree });
    rows.push(sessionTableRow(tree ? "session+tree" : "session", "this repository", m, tree));
  }
  return rows;
}

/** One table row from a {@link measureSession} result (no goal: what a turn pays, as a share of a fresh render). */
export function sessionTableRow(id, where, { fresh, session }, tree) {
  return {
    id,
    what: `session re-render with nothing changed, ${where}${tree ? ", with the tree" : ""}`,
    ours: { value: session.wall, unit: "ms" },
    floor: { name: "fresh renderSystemPrompt", value: fresh.wall, unit: "ms" },
    note: `in process; CPU ${session.cpu.toFixed(2)} vs ${fresh.cpu.toFixed(2)} ms per render`,
  };
}
