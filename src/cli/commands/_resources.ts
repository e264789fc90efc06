import { loadRules } from "../../gather/rules/index.js";
import { resolveCommonPaths } from "../../locate/layers.js";
import { checkFolders } from "../../options.js";
import { loadPromptTemplates } from "../../prompt-templates/index.js";
import { loadSkills } from "../../skills/index.js";
import type { CliIo } from "../io.js";
import { flagPaths } from "../options.js";

export interface ResourceFlags {
  cwd?: string;
  agentDir?: string;
  untrusted?: boolean;
}

/** Loads slash-command templates, skills and rule files the way `render` would find them. */
export async function loadResources(flags: ResourceFlags, io: CliIo) {
  const explicit = flagPaths(flags, io.cwd, io.home);
  const { cwd, agentDir, home } = resolveCommonPaths({ ...explicit, home: io.home, env: io.env });
  // The same checks as render: a mistyped --cwd or --agent-dir is a usage error.
  await checkFolders({ cwd, ...(explicit.agentDir !== undefined ? { agentDir } : {}) });
  const common = { cwd, agentDir, home, projectTrusted: !flags.untrusted };
  const [templates, skills, rules] = await Promise.all([
    loadPromptTemplates(common),
    loadSkills(common),
    loadRules(common),
  ]);
  return { templates, skills, rules };
}
