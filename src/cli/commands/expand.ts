import { expandPromptTemplate } from "../../prompt-templates/index.js";
import { expandSkillCommand } from "../../skills/index.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, exitCodeFor } from "../io.js";
import { loadResources, type ResourceFlags } from "./_resources.js";

/** `sysprompt expand "<text>"`: a skill command, else a template, else the text as it is. */
export async function expandCommand(
  text: string,
  flags: ResourceFlags & { strict?: boolean },
  io: CliIo,
): Promise<number> {
  const { templates, skills } = await loadResources(flags, io);
  const viaSkill = expandSkillCommand(text, skills.skills);
  const expanded = viaSkill !== text ? viaSkill : expandPromptTemplate(text, templates.templates);
  (io.product ?? io.stdout)(expanded.endsWith("\n") ? expanded : `${expanded}\n`);
  const diagnostics = [...templates.diagnostics, ...skills.diagnostics];
  io.stderr(formatDiagnostics(diagnostics));
  return exitCodeFor(diagnostics, flags.strict);
}
