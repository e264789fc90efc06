// A pi-like session over the 100k-file tree (issue 18, "Measured, not assumed"):
// one prompt session, the workspace tree on, 20 prompts, and before each prompt
// the agent edits one source file (a different one each time). Per prompt:
//
//   edit-bytes   bytes of system text that changed since the previous prompt: the
//                new text of every changed section, what pi sends as a patch
//                (goal: 0, since no instruction file is edited; it holds only once
//                the session keeps its session-class sections as taken)
//   edit-render  the session's re-render, wall ms, vs a raw Handlebars render of
//                the same templates with the same data (the floor no renderer beats)
//   edit-prefix  tokens of the prompt's prefix that survive from the previous prompt,
//                vs all of the prompt's tokens
//
// The tree is built by ../shared/bench/make-tree.mjs in a temporary folder (the
// edits would otherwise dirty the cached trees of bench/tree.mjs) and removed after.
// Medians over the 20 prompts. `npm run bench -- --only session-edits --no-write`.
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { median, ROOT } from "./_lib.mjs";

const load = (path) => import(pathToFileURL(join(ROOT, path)).href);

/** The shared tree builder beside the checkout (or, from a worktree under wt/, beside its parent). */
const MAKE_TREE =
  process.env.BENCH_MAKE_TREE ??
  [join(ROOT, "..", "shared"), join(ROOT, "..", "..", "shared")]
    .map((dir) => join(dir, "bench", "make-tree.mjs"))
    .find((path) => existsSync(path)) ??
  join(ROOT, "..", "shared", "bench", "make-tree.mjs");
const FILES = Number(process.env.BENCH_TREE_FILES ?? 100000);
const PROMPTS = 20;
const NOW = "2026-01-15T10:00:00Z";
/**
 * The session's settings: it keeps its session-class sections (the tree, the
 * date…) as the first render took them, as the pi extension does. Override as
 * JSON in BENCH_SESSION_OPTIONS (`{"keepSessionSections":false}` re-renders them).
 */
const KEEP_SESSION = { keepSessionSections: true };
/** Folders make-tree.mjs fills with ignored output: their files are not sources. */
const NOT_SOURCE = new Set(["node_modules", "dist", "build", ".git", ".cache"]);

/**
 * The first `count` source files nearest the root (breadth first, by name within a
 * folder): the files an agent most often touches, and the ones the tree shows (a deep
 * file in a folder the tree does not open changes nothing in it).
 */
function sourceFiles(dir, count) {
  const found = [];
  const queue = [dir];
  for (let i = 0; i < queue.length && found.length < count; i++) {
    const entries = readdirSync(queue[i], { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    );
    for (const entry of entries) {
      const path = join(queue[i], entry.name);
      if (entry.isDirectory() && !NOT_SOURCE.has(entry.name) && !entry.name.startsWith(".")) {
        queue.push(path);
      } else if (entry.isFile() && /\.(ts|tsx|js)$/.test(entry.name) && found.length < count) {
        found.push(path);
      }
    }
  }
  return found;
}

function commonPrefixBytes(a, b) {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  const n = Math.min(x.length, y.length);
  let i = 0;
  while (i < n && x[i] === y[i]) i++;
  while (i > 0 && i < x.length && (x[i] & 0xc0) === 0x80) i--;
  return x.subarray(0, i).toString("utf8");
}

/**
 * The two ways an agent's edit reaches the disk: written in place (pi's edit tool,
 * which leaves the folder's mtime alone), or written beside and renamed over the
 * file (editors, formatters and atomic-write tools), which moves the folder's mtime.
 */
const EDITS = {
  "in place": (file, i) => appendFileSync(file, `\n// edit ${i + 1}\n`),
  renamed: (file, i) => {
    const next = `${file}.sysprompt-edit`;
    writeFileSync(next, `${readFileSync(file, "utf8")}\n// edit ${i + 1}\n`);
    renameSync(next, file);
  },
};

/** Per prompt: changed bytes, re-render ms, tokens kept; and the raw Handlebars floor. */
export async function measureEditSession(cwd, scratch, how = "in place") {
  const api = await load("dist/src/index.js");
  const { tokenCounter } = await load("dist/src/tokens.js");
  const { builtinHelpers } = await load("dist/helpers/index.js");
  const { default: Handlebars } = await import("handlebars");
  const count = tokenCounter();
  const keep = { ...KEEP_SESSION, ...JSON.parse(process.env.BENCH_SESSION_OPTIONS ?? "{}") };
  const options = { cwd, agentDir: scratch, home: scratch, workspaceTree: true, now: NOW };
  const session = api.createPromptSession(options, keep);
  const files = sourceFiles(cwd, PROMPTS);
  if (files.length < PROMPTS) throw new Error(`only ${files.length} source files in ${cwd}`);
  try {
    const first = (await session.render()).result.text;
    let previous = first;
    const rows = [];
    for (const [i, file] of files.entries()) {
      EDITS[how](file, i);
      const start = performance.now();
      const { result, changes } = await session.render();
      const ms = performance.now() - start;
      const late = result.steps.filter((s) => s.status === "timeout" || s.status === "failed");
      if (late.length > 0) throw new Error(`steps not ok: ${JSON.stringify(late)}`);
      const changed = Object.values(changes ?? {}).reduce(
        (sum, text) => sum + (text === null ? 0 : Buffer.byteLength(text, "utf8")),
        0,
      );
      rows.push({
        changed,
        sections: Object.keys(changes ?? {}),
        ms,
        kept: count(commonPrefixBytes(previous, result.text)),
        tokens: count(result.text),
      });
      previous = result.text;
    }
    if (keep.keepSessionSections) {
      // Only source files changed: a session that keeps its session sections sends the first text.
      if (previous !== first)
        throw new Error("the kept session's text moved without an instruction edit");
    } else {
      // The session's last text is what a fresh render gives on the same files.
      const fresh = await api.renderSystemPrompt(options);
      if (fresh.text !== previous)
        throw new Error("the session's text differs from a fresh render");
    }
    // The floor: the same templates compiled once by plain Handlebars, rendered with the
    // same data (the last prompt's), joined; median of 200 renders.
    const prepared = await api.preparePrompt(options);
    const hb = Handlebars.create();
    for (const [name, fn] of Object.entries(builtinHelpers)) hb.registerHelper(name, fn);
    const raw = prepared.templates.map((t) => hb.compile(t.body, { noEscape: true }));
    const render = () => raw.map((template) => template(prepared.data)).join("\n\n");
    for (let k = 0; k < 20; k++) render();
    const floor = [];
    for (let k = 0; k < 200; k++) {
      const start = performance.now();
      render();
      floor.push(performance.now() - start);
    }
    return { rows, floorMs: median(floor), keep };
  } finally {
    session.close();
  }
}

/** Rows for bench/run.mjs (shape in bench/_lib.mjs). */
export async function sessionEditsSuite() {
  const ids = ["", "-renamed"].flatMap((s) =>
    ["edit-bytes", "edit-render", "edit-prefix"].map((id) => id + s),
  );
  if (!existsSync(MAKE_TREE)) {
    return ids.map((id) => ({ id, what: id, skipped: `no ${MAKE_TREE} (set BENCH_MAKE_TREE)` }));
  }
  const scratch = mkdtempSync(join(tmpdir(), "sysprompt-bench-edits-"));
  try {
    const tree = join(scratch, "tree");
    console.error(`building ${tree} (${FILES} files) …`);
    const made = spawnSync(process.execPath, [MAKE_TREE, tree, "--files", String(FILES)], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (made.status !== 0) throw new Error(`make-tree.mjs exited ${made.status}`);
    const agent = join(scratch, "agent");
    mkdirSync(agent);
    const out = [];
    for (const how of Object.keys(EDITS)) {
      const m = await measureEditSession(tree, agent, how);
      out.push(
        ...editRows(
          m,
          how,
          `${PROMPTS} prompts, one source edit (${how}) each, ${FILES / 1000}k-file tree, tree on`,
        ),
      );
    }
    return out;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function editRows({ rows, floorMs, keep }, how, where) {
  const suffix = how === "in place" ? "" : `-${how}`;
  const changed = rows.map((r) => r.changed);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const sections = [...new Set(rows.flatMap((r) => r.sections))].join(", ") || "none";
  const keeping = Object.keys(keep).length
    ? `session options ${JSON.stringify(keep)}`
    : "no option keeps session sections yet";
  return [
    {
      id: `edit-bytes${suffix}`,
      what: `system text changed per prompt (bytes of changed sections, the worst prompt), ${where}`,
      ours: { value: Math.max(...changed), unit: "bytes" },
      limit: { value: 0, unit: "bytes" },
      note: `${changed.filter((c) => c > 0).length} of ${rows.length} prompts changed it (mean ${mean(changed).toFixed(0)} bytes): ${sections}; ${keeping}`,
    },
    {
      id: `edit-render${suffix}`,
      what: `session re-render per prompt after the edit, ${where}`,
      ours: { value: median(rows.map((r) => r.ms)), unit: "ms" },
      floor: { name: "raw Handlebars, same templates and data", value: floorMs, unit: "ms" },
      note: `median of ${PROMPTS}; max ${Math.max(...rows.map((r) => r.ms)).toFixed(1)} ms; in process`,
    },
    {
      id: `edit-prefix${suffix}`,
      what: `prompt prefix that survives from one prompt to the next (mean), ${where}`,
      ours: { value: mean(rows.map((r) => r.kept)), unit: "tokens" },
      floor: { name: "the whole prompt", value: median(rows.map((r) => r.tokens)), unit: "tokens" },
      note: `min ${Math.min(...rows.map((r) => r.kept))} tokens (o200k estimate); the ratio is the share kept, 1.00× the goal`,
    },
  ];
}
