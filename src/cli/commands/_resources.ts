import { join } from "node:path";
import { DEFAULT_DEADLINE_MS, loadWithin, type SoFar } from "../../gather/deadline.js";
import { ownFirstGate } from "../../gather/own-first.js";
import { loadRules, type Rule, type RuleAccount, rulesSoFar } from "../../gather/rules/index.js";
import { DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../../locate/layers.js";
import { nearMissesInFolder } from "../../locate/near-misses.js";
import { checkFolders } from "../../options/folders.js";
import {
  type LoadPromptTemplatesResult,
  loadPromptTemplates,
} from "../../prompt-templates/index.js";
import { NO_DEADLINE, ownAgentDir, projectReach } from "../../repo-files/index.js";
import { type LoadSkillsResult, loadSkills } from "../../skills/index.js";
import type { CliIo } from "../io.js";
import { flagPaths } from "../options.js";

export interface ResourceFlags {
  cwd?: string;
  agentDir?: string;
  untrusted?: boolean;
}

/**
 * Loads slash-command templates, skills and rule files the way `render` would
 * find them, with the hints `render` gives about folders that look meant to
 * hold them but are not read (`.pi/prompt/`, `.pi/Skills/`), in `hints`.
 */
export async function loadResources(flags: ResourceFlags, io: CliIo) {
  const explicit = flagPaths(flags, io.cwd, io.home);
  const paths = resolveCommonPaths({ ...explicit, home: io.home, env: io.env });
  const { cwd, home } = paths;
  const named = explicit.agentDir !== undefined;
  // The same checks as render: a mistyped --cwd or --agent-dir is a usage error.
  await checkFolders({ cwd, ...(named ? { agentDir: paths.agentDir } : {}) });
  // And the same agent dir: not one an untrusted project holds (HOME inside the checkout), nor
  // one another user could fill, said as a render says it (`refused`).
  const { dir: agentDir, refused } = await ownAgentDir(paths.agentDir, {
    cwd,
    home,
    trusted: !flags.untrusted,
    named,
  });
  const common = { cwd, agentDir, home, projectTrusted: !flags.untrusted };
  const near = { customFiles: false, folders: ["prompts", "skills"] } as const;
  // Within a render's default deadline, as its own steps: each loader parses a repository's
  // frontmatter blocks one at a time, and 5,000 skills of dense YAML took minutes.
  const within = <T>(
    what: string,
    load: (signal?: AbortSignal) => Promise<T>,
    nothing: T | SoFar<T>,
  ) => loadWithin(DEFAULT_DEADLINE_MS, what, load, nothing);
  // What a late loader had read, the user's own files first: kept past the deadline.
  const templatesSoFar: { value?: LoadPromptTemplatesResult } = {};
  const rulesRead: { rules: Rule[]; accounts: RuleAccount[] } = { rules: [], accounts: [] };
  const skillsSoFar: { value?: LoadSkillsResult } = {};
  // As in a render: each loader's repository part waits until every loader has read yours, or
  // half the loaders' deadline has passed (2,000 skills of yours held a project's templates past
  // it and `expand` found none, rev52a F1).
  const { yoursFirst } = ownFirstGate(undefined, { openAfterMs: DEFAULT_DEADLINE_MS / 2 });
  const [templates, skills, rules, userHints, projectHints] = await Promise.all([
    within(
      "slash-command templates",
      (signal) =>
        yoursFirst((own) =>
          loadPromptTemplates({
            ...common,
            signal,
            soFar: templatesSoFar,
            beforeProject: own.thenProject,
          }),
        ),
      { soFar: () => templatesSoFar.value ?? { templates: [], diagnostics: [] } },
    ),
    within(
      "skills",
      (signal) =>
        yoursFirst((own) =>
          loadSkills({ ...common, signal, soFar: skillsSoFar, beforeProject: own.thenProject }),
        ),
      { soFar: () => skillsSoFar.value ?? { skills: [], diagnostics: [] } },
    ),
    within(
      "rule files",
      (signal) =>
        yoursFirst((own) =>
          loadRules({ ...common, signal, soFar: rulesRead, beforeProject: own.thenProject }),
        ),
      { soFar: () => rulesSoFar(rulesRead, []) },
    ),
    nearMissesInFolder(agentDir, near),
    // The project's `.pi` asked of the door before it is listed (rev82e F2).
    flags.untrusted
      ? []
      : projectReach({ start: cwd, home, trusted: true, signal: NO_DEADLINE }).then((reach) =>
          nearMissesInFolder(join(cwd, DEFAULT_PROJECT_DIR), near, undefined, reach),
        ),
  ]);
  // The project a skill's expansion reads within: the one its skills were loaded from.
  const project = common;
  const cut = [...templates.diagnostics, ...skills.diagnostics, ...rules.diagnostics];
  return {
    templates: templates.value,
    skills: skills.value,
    rules: rules.value,
    hints: [...(refused ? [refused] : []), ...userHints, ...projectHints, ...cut],
    project,
  };
}
