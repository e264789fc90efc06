import {
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { SystemPromptOptions } from "../../src/options.js";
import type { RenderResult } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";

/**
 * The settle time sessions use in these tests. Their files were just written,
 * so with the real one (2 s) every stat would be distrusted and every step
 * would run again. Every edit below moves the mtime of the file and of its
 * folder to a time of its own, so no edit can hide behind a stat that
 * happens to look the same.
 */
export const TRUST_EVERY_STAT = Number.NEGATIVE_INFINITY;

/** The time every fixture file starts with. */
const PINNED_MS = Date.parse("2026-01-10T08:00:00Z");
let nextMs = PINNED_MS;

/** A time no other edit of this process used: one minute after the last, so the tree's text moves too. */
function uniqueTime(): Date {
  nextMs += 60_000;
  return new Date(nextMs);
}

/** Pins `path` and every folder below `root` down to it. */
function pinAll(root: string, time: Date): void {
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
    utimesSync(p, time, time);
  };
  walk(root);
}

/**
 * A project laid out as `<root>/agent`, `<root>/home` and `<root>/project`
 * (a git root: the project root of the context files): an AGENTS.md that
 * imports docs/style.md, a project skill, a project section override, and a
 * little source tree. Every time is pinned.
 */
export function sessionProject(): { root: string; project: string; agent: string } {
  const root = tempDir();
  const project = join(root, "project");
  const files: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "# Project\n\nRun `npm test` first.\n\n@docs/style.md\n",
    "project/docs/style.md": "Indent with two spaces.\n",
    "project/.pi/sections/rules.md": "{{> base}}\n- Keep commits small.\n",
    "project/.pi/skills/pdf/SKILL.md":
      "---\nname: pdf\ndescription: Read tables out of PDF files.\n---\nUse pdftotext.\n",
    "project/src/index.ts": "export const x = 1;\n",
    "project/src/util/math.ts": "export const add = (a: number, b: number) => a + b;\n",
    "home/.keep": "",
  };
  for (const [path, text] of Object.entries(files)) write(root, path, text, false);
  // The agent dir's cache folder, which a render makes on first use (`cacheLocation`): made
  // here, so the first render's environment step does not change the agent dir's listing
  // while the templates step, in parallel, lists it (under load, in either order: a
  // second render then listed the folder again, ci80).
  mkdirSync(join(root, "agent", "cache"), { recursive: true });
  pinAll(root, new Date(PINNED_MS));
  return { root, project, agent: join(root, "agent") };
}

/**
 * Writes `<root>/<path>`; with `pin`, moves its mtime, and that of every
 * folder the write changed (its own, and any it had to create and the one
 * holding them), to a new time.
 */
export function write(root: string, path: string, text: string, pin = true): void {
  const full = join(root, path);
  const changed = [full];
  let dir = dirname(full);
  while (!existsSync(dir)) {
    changed.push(dir);
    dir = dirname(dir);
  }
  changed.push(dir);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
  if (pin) touch(...changed);
}

/** Makes `<root>/<path>` a symbolic link to `target` (replacing what was there), pinned like {@link write}. */
export function link(root: string, path: string, target: string): void {
  const full = join(root, path);
  rmSync(full, { force: true });
  mkdirSync(dirname(full), { recursive: true });
  symlinkSync(target, full);
  const time = uniqueTime();
  lutimesSync(full, time, time);
  utimesSync(dirname(full), time, time);
}

/** Deletes `<root>/<path>`, if it is there, and moves its folder's mtime to a new time. */
export function remove(root: string, path: string): void {
  const full = join(root, path);
  if (!existsSync(full) && !isLink(full)) return;
  rmSync(full, { recursive: true, force: true });
  touch(dirname(full));
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function touch(...paths: string[]): void {
  const time = uniqueTime();
  for (const p of paths) utimesSync(p, time, time);
}

/**
 * The deadline of these renders. A session reuses only what a render gathered in time, and
 * these tests count what the next render reads again; a cold first render on a loaded 2-core
 * machine (imports, the tokenizer) must not turn a late step into a re-read. A test about the
 * deadline passes its own.
 */
const DEADLINE_MS = 60_000;

/** The pinned options of a session project (tree off unless asked for). */
export function projectOptions(root: string, extra: SystemPromptOptions = {}): SystemPromptOptions {
  return pinned(root, {
    tools: ["read", "bash", "edit", "write"],
    deadlineMs: DEADLINE_MS,
    ...extra,
  });
}

/** A result without its step timings (milliseconds differ from run to run; names and statuses do not). */
export function comparable(result: RenderResult) {
  return { ...result, steps: result.steps.map(({ name, status }) => ({ name, status })) };
}

/** The text of one section, or undefined. */
export function sectionText(result: RenderResult, name: string): string | undefined {
  return result.sections.find((s) => s.name === name)?.text;
}
