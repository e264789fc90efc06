import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { SystemPromptOptions } from "../../src/options.js";

/** `test/fixtures/`, absolute. */
export const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** The package's builtin `prompts/` folder, where builtin section sources live. */
export const BUILTIN = fileURLToPath(new URL("../../prompts/", import.meta.url));

/** The pinned clock of every test. */
export const NOW = "2026-01-15T10:00:00Z";

const made: string[] = [];

/**
 * Removing a folder waits on the disk, not the CPU: on an ext4 /tmp mounted with online discard,
 * some 0.5 ms an rmdir, 20-45 ms for a small project's folder, 3 ms of it CPU; after every test
 * of the unit tiers that was about a fifth of their time. So threads of their own remove the
 * temp folders while the next test runs, a folder each at a time: the wait is per call, and four
 * threads remove 80 small folders in a quarter of one thread's time. test/_setup.ts waits for
 * them at the end of each file, test/_timed-setup.ts before each timed test. Threads, not
 * processes: files that mock node:fs or node:child_process do not reach them.
 */
const REMOVER = `
const { parentPort } = require("node:worker_threads");
const { rmSync } = require("node:fs");
parentPort.on("message", (dir) => {
  let failure = null;
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch (error) {
    failure = String(error && error.stack ? error.stack : error);
  }
  parentPort.postMessage(failure);
});
`;
const MAX_REMOVERS = 4;

/** A removing thread and the folders it was given and has not removed yet, in order. */
interface Remover {
  worker: Worker;
  queue: string[];
}

const removers: Remover[] = [];
/** Folders that could not be removed, not yet said. */
const failures: string[] = [];
let whenRemoved: (() => void) | undefined;

const stillRemoving = () => removers.some((r) => r.queue.length > 0);

function startRemover(): Remover {
  const remover: Remover = { worker: new Worker(REMOVER, { eval: true }), queue: [] };
  remover.worker.unref();
  remover.worker.on("message", (failure: string | null) => {
    const dir = remover.queue.shift();
    if (failure !== null) failures.push(`${dir}: ${failure}`);
    if (!stillRemoving()) whenRemoved?.();
  });
  // Should a thread die, what it was given is removed here, as it was before the threads.
  const lost = (why: unknown) => {
    const at = removers.indexOf(remover);
    if (at >= 0) removers.splice(at, 1);
    if (why !== undefined) failures.push(`a removing thread: ${String(why)}`);
    for (const dir of remover.queue.splice(0)) rmSync(dir, { recursive: true, force: true });
    if (!stillRemoving()) whenRemoved?.();
  };
  remover.worker.on("error", lost);
  remover.worker.on("exit", () => lost(undefined));
  removers.push(remover);
  return remover;
}

/** An idle thread, else a new one while there are fewer than MAX_REMOVERS, else the least busy. */
function removerForNext(): Remover {
  const idle = removers.find((r) => r.queue.length === 0);
  if (idle) return idle;
  if (removers.length < MAX_REMOVERS) return startRemover();
  return removers.reduce((a, b) => (b.queue.length < a.queue.length ? b : a));
}

/** The folders of fileTempDir, kept until their file's last test has run. */
const madeForFile: string[] = [];

/**
 * Starts removing the temp folders made since the last call: test/_setup.ts runs it after every
 * test of every file, and with `file` after the file's last (fileTempDir's folders too).
 */
export function removeTempDirs(file = false): void {
  const dirs = file ? [...made.splice(0), ...madeForFile.splice(0)] : made.splice(0);
  for (const dir of dirs) {
    const remover = removerForNext();
    remover.queue.push(dir);
    remover.worker.postMessage(dir);
  }
}

/** Waits until every temp folder given to removeTempDirs is gone; throws what failed to go. */
export async function tempDirsRemoved(): Promise<void> {
  if (stillRemoving()) {
    for (const r of removers) r.worker.ref();
    await new Promise<void>((resolve) => {
      whenRemoved = resolve;
    });
    whenRemoved = undefined;
    for (const r of removers) r.worker.unref();
  }
  if (failures.length > 0)
    throw new Error(`temp folders not removed:\n${failures.splice(0).join("\n")}`);
}

/**
 * A fresh temp folder kept for the whole file, removed after its last test: for what its tests
 * share, built once in a beforeAll (tempDir's folder would be gone after the first test).
 */
export function fileTempDir(prefix = "sysprompt-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  madeForFile.push(dir);
  return dir;
}

/** A fresh temp folder (its real path, so expected paths match), removed after the test. */
export function tempDir(prefix = "sysprompt-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/**
 * A temp copy of `test/fixtures/<group>/<scenario>`. Scenarios are rendered
 * from a copy, not in place: context-file discovery walks every ancestor of
 * cwd and skill discovery walks up to the git root, so in place they would
 * pick up whatever AGENTS.md or `.agents/skills` the repository itself has.
 */
export function copyScenario(group: string, scenario: string): string {
  const dir = tempDir();
  cpSync(join(FIXTURES, group, scenario), dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

/** Writes each `path: text` under `root`, making the folders on the way. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/**
 * Fully pinned options for a scenario laid out as `<root>/agent` (user layer),
 * `<root>/project` (cwd, with `.pi/` as the project layer) and `<root>/home`.
 * The project and agent folders are created when missing: an explicit `cwd`
 * or `agentDir` that does not exist is an error.
 */
export function pinned(root: string, extra: SystemPromptOptions = {}): SystemPromptOptions {
  for (const dir of ["project", "agent"]) mkdirSync(join(root, dir), { recursive: true });
  return {
    cwd: join(root, "project"),
    agentDir: join(root, "agent"),
    home: join(root, "home"),
    env: {},
    now: NOW,
    machine: { platform: "linux", arch: "x64" },
    ...extra,
  };
}

/** Path of a builtin section file, as sections report it in `source.path`. */
export const builtinSection = (name: string) => join(BUILTIN, "sections", `${name}.md`);

/** The builtin sections of a default render (no docs, skills, tree or roots), in order. */
export const DEFAULT_SECTION_NAMES = [
  "preamble",
  "tools",
  "rules",
  "cwd",
  "environment",
  "date",
] as const;

export const PREAMBLE = `You are a coding agent. You work inside the user's software project: you read code, run commands, make changes and explain what you found, using the tools described below.

Work in small steps you can check: understand the request, read the code it touches, make the change, then verify it. Report plainly what you did, what you checked and what is still open.`;

export const DEFAULT_TOOLS_SECTION = `<tools>
Tools you can call:
- read: Read a file's contents; long files can be read in parts.
- bash: Run a shell command in the working directory and see its output.
- edit: Change a file by replacing an exact piece of its text.
- write: Create a file or overwrite one with new contents.
</tools>`;

export const GENERAL_RULES = [
  "Read the relevant code before you change it, and match the style already there.",
  "Keep changes to what the task needs; mention other problems you notice instead of fixing them silently.",
  "After a change, run the checks the project has (tests, type checker, linter) and report what they said.",
  "Never claim a step ran or passed when it did not.",
  "Ask before destructive or irreversible actions such as deleting files or rewriting history.",
  "Show file paths in full when you mention them.",
];

export const SHELL_RULE =
  "Use the shell to explore the project (rg or grep to search, find and ls to list), since no dedicated search tools are selected.";

export const DEFAULT_RULES_SECTION = `<rules>
Rules:
${[SHELL_RULE, ...GENERAL_RULES].map((r) => `- ${r}`).join("\n")}
</rules>`;

export const ENVIRONMENT_SECTION = `<environment>
- Operating system: Linux
- Architecture: x64
</environment>`;

export const cwdSection = (cwd: string) => `<cwd>\nCurrent working directory: ${cwd}\n</cwd>`;

export const DATE_SECTION = "<date>\nToday's date: 2026-01-15\n</date>";
