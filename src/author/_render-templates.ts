import { DEFAULT_DEADLINE_MS, loadWithin } from "../gather/deadline.js";
import { DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../locate/layers.js";
import type { SystemPromptOptions } from "../options.js";
import {
  type LoadPromptTemplatesResult,
  loadPromptTemplates,
  type PromptTemplate,
} from "../prompt-templates/index.js";
import type { PreparedPrompt } from "../render-system-prompt.js";
import type { Diagnostic } from "../types.js";

/**
 * The slash-command templates `explain` and `watch` show beside a render,
 * read within what the render left of its deadline (`started` is when it
 * began, on `performance.now()`): each template's frontmatter is parsed
 * synchronously, and a project's 8 MiB of them took 30 s. Past it, none
 * and a `load-deadline` warning.
 */
export async function templatesBesideRender(
  options: SystemPromptOptions,
  prepared: PreparedPrompt,
  started: number,
): Promise<{ templates: PromptTemplate[]; diagnostics: Diagnostic[] }> {
  const paths = resolveCommonPaths(options);
  const { cwd, home } = paths;
  // The render's own agent dir: not one an untrusted project holds (HOME inside the checkout).
  const agentDir = prepared.opts?.agentDir ?? paths.agentDir;
  const deadlineMs = prepared.opts?.deadlineMs ?? DEFAULT_DEADLINE_MS;
  // Past the deadline, the folders read whole (the user's first) are kept.
  const soFar: { value?: LoadPromptTemplatesResult } = {};
  const loaded = await loadWithin(
    deadlineMs,
    "slash-command templates",
    (signal) =>
      loadPromptTemplates({
        cwd,
        agentDir,
        home,
        projectTrusted: options.projectTrusted !== false,
        projectDir: options.projectDir ?? DEFAULT_PROJECT_DIR,
        soFar,
        ...(signal ? { signal } : {}),
      }),
    { soFar: () => soFar.value ?? { templates: [], diagnostics: [] } },
    deadlineMs - (performance.now() - started),
  );
  return {
    templates: loaded.value.templates,
    diagnostics: [...loaded.value.diagnostics, ...loaded.diagnostics],
  };
}
