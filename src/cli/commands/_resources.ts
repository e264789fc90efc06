import { homedir } from "node:os";
import { resolve } from "node:path";
import { resolveAgentDir } from "../../locate/layers.js";
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
  const agentDir = resolveAgentDir({ agentDir: flags.agentDir, env: io.env, home, cwd });
  const common = { cwd, agentDir, home, projectTrusted: !flags.untrusted };
  const [templates, skills] = await Promise.all([loadPromptTemplates(common), loadSkills(common)]);
  return { templates, skills };
}
