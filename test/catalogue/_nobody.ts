import { spawnSync } from "node:child_process";
import {
  chmodSync,
  lchownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { PromptData } from "../../src/data.js";
import type { SystemPromptOptions } from "../../src/options.js";
import type {
  LoadPromptTemplatesOptions,
  LoadPromptTemplatesResult,
} from "../../src/prompt-templates/types.js";
import type { RenderResult } from "../../src/types.js";

// Root reads every file whatever its mode, and the tests run as root here and
// in CI (Debian). So the cases about unreadable files (EACCES) render in a
// child process that runs the built library as `nobody` (uid 65534), through
// setpriv. Where that cannot work (no setpriv, no such user, or a checkout
// that user cannot read, such as one under /root) those cases are skipped,
// and the skip says why. A user who is not root runs them in-process.
//
// The cases of another user's files in a folder anyone may write to play
// that user the other way round: root plants the entries, then hands them to
// `nobody` ({@link giveAway}), in a shared folder ({@link sharedFolder}).

import { BUILT_ENTRY as ENTRY, ensureBuilt } from "./_built.js";

/** The other user: `nobody`. As root, a case plays that user by handing it the entries it plants ({@link giveAway}). */
export const NOBODY = 65534;

/** True when this process can read every file (root): EACCES needs another user. */
export const IS_ROOT = process.getuid?.() === 0;

/** The kernel refuses, even to root, a link another user put in a sticky folder: the link cases test the door only without it. */
export const LINKS_FOLLOWED =
  IS_ROOT && readFileSync("/proc/sys/fs/protected_symlinks", "utf8").trim() === "0";

/** Writes `text` to `path`, making the folders on its way. */
export function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Gives `path`, and everything below it, to `nobody`, links as they lie. */
export function giveAway(path: string): void {
  lchownSync(path, NOBODY, NOBODY);
  let entries: string[] = [];
  try {
    entries = readdirSync(path);
  } catch {
    return;
  }
  for (const name of entries) giveAway(join(path, name));
}

/** A new folder `name` in `root` with `mode` (0o1777, 0o777: anyone may write to it). */
export function sharedFolder(root: string, name: string, mode: number): string {
  const folder = join(root, name);
  mkdirSync(folder);
  chmodSync(folder, mode);
  return folder;
}

const asNobody = (args: readonly string[]) => [
  `--reuid=${NOBODY}`,
  `--regid=${NOBODY}`,
  "--clear-groups",
  process.execPath,
  ...args,
];

/**
 * Why the unreadable-file cases cannot run here, or undefined when they can.
 * As root this builds dist/ when a source is newer (the child runs the build),
 * then checks that `nobody` can load it.
 */
function unprivilegedProblem(): string | undefined {
  if (!IS_ROOT) return undefined;
  if (process.platform !== "linux") return "running as root on a system without setpriv";
  const setpriv = spawnSync("setpriv", ["--version"]);
  if (setpriv.error) return "running as root and setpriv is not installed";
  ensureBuilt();
  const probe = spawnSync(
    "setpriv",
    asNobody(["--input-type=module", "-e", `await import(${JSON.stringify(ENTRY)})`]),
    { encoding: "utf8" },
  );
  if (probe.status !== 0) {
    const lines = (probe.stderr || String(probe.error)).split("\n");
    const why = lines.find((l) => /Error|EACCES|denied/.test(l)) ?? lines[0];
    return `running as root, and uid ${NOBODY} cannot load ${ENTRY} (${why?.trim()})`;
  }
  return undefined;
}

let problem: { reason: string | undefined } | undefined;

/**
 * Why the cases that need an unprivileged user are skipped; undefined when
 * they run. Found out once per test file, on first call (it may build dist/
 * and starts a process), so a file that does not need it pays nothing.
 */
export function unprivilegedSkip(): string | undefined {
  problem ??= { reason: unprivilegedProblem() };
  return problem.reason;
}

const SCRIPT = `
const lib = await import(process.argv[1]);
const [what, json] = process.argv.slice(2);
const options = JSON.parse(json);
if (what === "templates") {
  process.stdout.write(JSON.stringify(await lib.loadPromptTemplates(options)));
} else {
  const prepared = await lib.preparePrompt(options);
  process.stdout.write(JSON.stringify({ result: lib.renderPrepared(prepared), data: prepared.data }));
}
`;

/** Runs the child script as uid 65534 and parses what it prints. */
function runAsNobody(root: string, what: "render" | "templates", options: object): unknown {
  chmodSync(root, 0o755);
  const child = spawnSync(
    "setpriv",
    asNobody(["--input-type=module", "-e", SCRIPT, ENTRY, what, JSON.stringify(options)]),
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`${what} as uid ${NOBODY} failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

/**
 * Renders with the built library as uid 65534. `root` (a temp folder, 0700
 * when made) is opened to others first so that user can reach the fixture.
 * Options must be JSON (strings, numbers, arrays, plain objects).
 */
export function renderAsNobody(
  root: string,
  options: SystemPromptOptions,
): { result: RenderResult; data: PromptData } {
  return runAsNobody(root, "render", options) as { result: RenderResult; data: PromptData };
}

/** `loadPromptTemplates(options)` as uid 65534, as {@link renderAsNobody} renders. */
export function loadTemplatesAsNobody(
  root: string,
  options: LoadPromptTemplatesOptions,
): LoadPromptTemplatesResult {
  return runAsNobody(root, "templates", options) as LoadPromptTemplatesResult;
}
