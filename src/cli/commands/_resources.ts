import { homedir } from "node:os";
import { resolve } from "node:path";
import { resolveUserPath } from "../../_paths.js";
import { resolveAgentDir } from "../../locate/layers.js";
import { checkFolders } from "../../options.js";
import { loadPromptTemplates } from "../../prompt-templates/index.js";
import { loadSkills } from "../../skills/index.js";
import type { CliIo } from "../io.js";

export interface ResourceFlags {
  cwd?: string;
  agentDir?: string;
  untrusted?: boolean;
}

/** Loads slash-command templates and skills the way `render` would find them. */
export async function loadResources(flags: ResourceFlags, io: CliIo) {
  const home = io.home ?? homedir();
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  // Relative --agent-dir is relative to where the command runs, as for render.
  const explicitAgentDir =
    flags.agentDir !== undefined ? resolveUserPath(flags.agentDir, io.cwd, home) : undefined;
  const agentDir = resolveAgentDir({ agentDir: explicitAgentDir, env: io.env, home, cwd });
  // The same checks as render: a mistyped --cwd or --agent-dir is a usage error.
  await checkFolders({ cwd, ...(flags.agentDir !== undefined ? { agentDir } : {}) });
  const common = { cwd, agentDir, home, projectTrusted: !flags.untrusted };
  const [templates, skills] = await Promise.all([loadPromptTemplates(common), loadSkills(common)]);
  return { templates, skills };
}
