import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import type { PromptData } from "../../src/data.js";
import type { SystemPromptOptions } from "../../src/options.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import type { Diagnostic, RenderResult } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { buildLayout, type Layout, removePaths } from "./_fixture.js";
import { IS_ROOT, renderAsNobody } from "./_nobody.js";

// The bad-input catalogue: one named case per kind of bad input. Each case
// adds its bad files to the same small, complete project (the baseline) and
// is rendered twice in the same folder: with the bad files, then without them.
// It passes when
// - the render with the bad files succeeds,
// - the diagnostics it adds are exactly the expected ones (code, path, line),
// - nothing else was lost: every section of the clean render is still there
//   with the same text (but those the case says the bad file shows in), and
//   every context file and skill of the clean render is still there, whole.

/** cwd of every case: a folder below the project root, so that each layer has a context file. */
export const CWD = "project/app";

/**
 * A complete project: a git root with a context file, a cwd with a project
 * section, a skill and a slash-command template, and a user context file.
 */
export const BASELINE: Layout = [
  ["project/.git", { dir: true }],
  ["project/AGENTS.md", "# Project\n\nRun npm test before every commit.\n"],
  ["project/app/.pi/sections/team.md", "---\norder: 75\n---\nThe team reviews every change.\n"],
  [
    "project/app/.pi/skills/alpha/SKILL.md",
    "---\nname: alpha\ndescription: Alpha steps for testing the catalogue.\n---\nDo alpha.\n",
  ],
  ["project/app/.pi/prompts/review.md", "---\ndescription: Review a file\n---\nReview $1.\n"],
  ["agent/AGENTS.md", "User-wide: answer briefly.\n"],
  ["home", { dir: true }],
];

/** One render: the result and the data the templates saw. */
export interface Rendered {
  result: RenderResult;
  data: PromptData;
}

export interface CatalogueCase {
  /** Unique, kebab-case; also the name of its static fixture folder, if it has one. */
  name: string;
  /** The bad files, built on top of the baseline. */
  layout?: Layout;
  /** What is removed for the clean render. Default: every path of `layout` (and of a static fixture: list them). */
  bad?: readonly (string | Uint8Array)[];
  /** Options on top of the pinned ones (cwd `project/app`). */
  options?: SystemPromptOptions;
  /** The diagnostics the bad files add, whole (`root` is the case's folder). */
  expected: (root: string) => Diagnostic[];
  /** Sections whose text may differ from the clean render's, because the bad file shows in them. */
  changed?: readonly string[];
  /** Whole-value checks of what the bad file legitimately adds. */
  verify?: (bad: Rendered, clean: Rendered, root: string) => void;
  /**
   * What `checkProject` says about the bad files (its diagnostics whose path
   * is one of them or below one), whole: for input a render passes over
   * quietly by design (an unknown data field renders empty).
   */
  check?: (root: string) => Diagnostic[];
  /** Builds what a layout cannot describe cheaply (10,000 folders), after the layout. */
  build?: (root: string) => void;
  /** Runs after the files are built, before the render with them (to arm a race). */
  before?: (root: string) => void;
  /** Render as an unprivileged user (for EACCES: root reads everything). */
  unprivileged?: boolean;
}

/** Relative paths of `layout`, for `bad`. */
function pathsOf(layout: Layout | undefined): (string | Uint8Array)[] {
  return (layout ?? []).map(([path]) => path);
}

/**
 * Pinned options for a case's root. Its searches upwards stop at the root (`ceilingDir`): the
 * folders above it are the machine's temp folder, which anyone may write to, and a stray
 * `/tmp/.git` there gave a case a `root-marker-refused` its expectation does not hold (fx82d).
 */
export function caseOptions(root: string, extra: SystemPromptOptions = {}): SystemPromptOptions {
  mkdirSync(join(root, CWD), { recursive: true });
  return pinned(root, { cwd: join(root, CWD), ceilingDir: root, ...extra });
}

async function renderIn(
  root: string,
  options: SystemPromptOptions,
  unprivileged: boolean,
): Promise<Rendered> {
  // Not root: this process is unprivileged already.
  if (unprivileged && IS_ROOT) return renderAsNobody(root, options);
  const prepared = await preparePrompt(options);
  return { result: renderPrepared(prepared), data: prepared.data };
}

/** Builds the case, renders it with and without its bad files, and checks the three promises. */
export async function runCase(c: CatalogueCase): Promise<{ bad: Rendered; clean: Rendered }> {
  const root = tempDir();
  const restore = await buildLayout(root, c.name, [...BASELINE, ...(c.layout ?? [])]);
  const options = caseOptions(root, c.options);
  const badPaths = c.bad ?? pathsOf(c.layout);
  c.build?.(root);
  c.before?.(root);
  let bad: Rendered;
  try {
    bad = await renderIn(root, options, c.unprivileged === true);
    if (c.check) expect(await checkBadFiles(root, options, badPaths)).toEqual(c.check(root));
  } finally {
    restore();
  }
  removePaths(root, badPaths);
  const clean = await renderIn(root, options, c.unprivileged === true);
  // To write a new case: CATALOGUE_PRINT=1 shows what its bad files add.
  if (process.env.CATALOGUE_PRINT) printAdded(c.name, root, bad, clean);
  expectOnlyAdded(bad, clean, c.expected(root));
  expectNothingLost(bad, clean, c.changed ?? []);
  c.verify?.(bad, clean, root);
  return { bad, clean };
}

function printAdded(name: string, root: string, bad: Rendered, clean: Rendered): void {
  const added = diagnosticsLess(bad.result.diagnostics, clean.result.diagnostics);
  const shown = added.map((d) => ({ ...d, path: d.path?.replace(root, "<root>") }));
  console.log(name, JSON.stringify(shown, null, 1));
}

/** `checkProject`'s diagnostics about the bad files. */
async function checkBadFiles(
  root: string,
  options: SystemPromptOptions,
  paths: readonly (string | Uint8Array)[],
): Promise<Diagnostic[]> {
  const { cwd, agentDir, home, env } = options;
  const report = await checkProject({ cwd, agentDir, home, env });
  const prefixes = paths.map((p) => join(root, p.toString()));
  return report.diagnostics.filter((d) =>
    prefixes.some((p) => d.path === p || d.path?.startsWith(`${p}/`)),
  );
}

const keyOf = (d: Diagnostic) => JSON.stringify(d);

/** `a` less the diagnostics of `b`, counted: a problem reported twice is two. */
export function diagnosticsLess(a: readonly Diagnostic[], b: readonly Diagnostic[]): Diagnostic[] {
  const left = new Map<string, number>();
  for (const d of b) left.set(keyOf(d), (left.get(keyOf(d)) ?? 0) + 1);
  return a.filter((d) => {
    const n = left.get(keyOf(d)) ?? 0;
    if (n === 0) return true;
    left.set(keyOf(d), n - 1);
    return false;
  });
}

function expectOnlyAdded(bad: Rendered, clean: Rendered, expected: Diagnostic[]): void {
  expect(diagnosticsLess(bad.result.diagnostics, clean.result.diagnostics)).toEqual(expected);
  // A bad file never hides a problem found elsewhere.
  expect(diagnosticsLess(clean.result.diagnostics, bad.result.diagnostics)).toEqual([]);
}

function expectNothingLost(bad: Rendered, clean: Rendered, changed: readonly string[]): void {
  const badSections = new Map(bad.result.sections.map((s) => [s.name, s]));
  for (const section of clean.result.sections) {
    if (changed.includes(section.name)) {
      expect(badSections.has(section.name), `section ${section.name}`).toBe(true);
    } else {
      expect(badSections.get(section.name), `section ${section.name}`).toEqual(section);
    }
  }
  const added = bad.result.sections.filter(
    (s) => !clean.result.sections.some((c) => c.name === s.name),
  );
  expect(
    added.map((s) => s.name),
    "sections only the bad render has",
  ).toEqual(added.map((s) => s.name).filter((name) => changed.includes(name)));
  // Every clean context file and skill is still there, whole and in order.
  const cleanPaths = new Set(clean.data.contextFiles.map((f) => f.path));
  expect(bad.data.contextFiles.filter((f) => cleanPaths.has(f.path))).toEqual(
    clean.data.contextFiles,
  );
  const cleanSkills = new Set(clean.data.skills.map((s) => s.name));
  expect(bad.data.skills.filter((s) => cleanSkills.has(s.name))).toEqual(clean.data.skills);
  // With nothing changed on purpose, the prompt is the clean prompt.
  if (changed.length === 0) expect(bad.result.text).toEqual(clean.result.text);
}

/** A diagnostic, with `line` and `column` only when given. */
export function diag(
  level: Diagnostic["level"],
  code: string,
  message: string,
  path?: string,
  line?: number,
  column?: number,
): Diagnostic {
  return {
    level,
    code,
    message,
    ...(path !== undefined ? { path } : {}),
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
  };
}
