import { join } from "node:path";
import { expect } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { loadPromptTemplates } from "../../src/prompt-templates/index.js";
import type { Diagnostic } from "../../src/types.js";
import { tempDir } from "../api/_helpers.js";
import { buildLayout, type Layout, removePaths } from "./_fixture.js";
import { BASELINE, caseOptions, diag, diagnosticsLess } from "./_harness.js";
import { IS_ROOT, loadTemplatesAsNobody } from "./_nobody.js";

// The catalogue's runner for slash-command templates (`.pi/prompts/*.md`). A
// render does not read them, so a case loads them as `sysprompt list` and
// `expand` do: the diagnostics added are exactly the expected ones, the
// baseline's `review` is still there, whole, and `checkProject` (which loads
// them too) does not throw.

export interface TemplatesCase {
  name: string;
  layout: Layout;
  expected: (root: string) => Diagnostic[];
  /** Names of the templates the bad files add (they load despite the problem). */
  added?: string[];
  /** Runs after the files are built, before they are loaded (to arm a race). */
  before?: (root: string) => void;
  /** Load as an unprivileged user (EACCES), as the render cases do. */
  unprivileged?: boolean;
}

export async function runTemplatesCase(c: TemplatesCase): Promise<void> {
  const root = tempDir();
  const restore = await buildLayout(root, c.name, [...BASELINE, ...c.layout]);
  const { cwd, agentDir, home } = caseOptions(root);
  const options = { cwd, agentDir, home } as { cwd: string; agentDir: string; home: string };
  const load = async () =>
    c.unprivileged && IS_ROOT
      ? loadTemplatesAsNobody(root, options)
      : await loadPromptTemplates(options);
  c.before?.(root);
  let bad: Awaited<ReturnType<typeof load>>;
  try {
    bad = await load();
    if (!c.unprivileged) {
      const report = await checkProject({ ...options, env: {} });
      expect(report.promptTemplates).toEqual(bad.templates.length);
    }
  } finally {
    restore();
  }
  removePaths(
    root,
    c.layout.map(([p]) => p),
  );
  const clean = await load();
  expect(diagnosticsLess(bad.diagnostics, clean.diagnostics)).toEqual(c.expected(root));
  expect(diagnosticsLess(clean.diagnostics, bad.diagnostics)).toEqual([]);
  const cleanNames = new Set(clean.templates.map((t) => t.name));
  expect(bad.templates.filter((t) => cleanNames.has(t.name))).toEqual(clean.templates);
  expect(bad.templates.map((t) => t.name).filter((n) => !cleanNames.has(n))).toEqual(c.added ?? []);
}

/** One diagnostic about `path` (under the root). */
export const about =
  (
    path: string,
    level: "warning" | "info",
    code: string,
    message: string,
    line?: number,
    column?: number,
  ) =>
  (root: string) => [diag(level, code, message, join(root, path), line, column)];
