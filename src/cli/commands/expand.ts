import { expandPromptTemplateResult } from "../../prompt-templates/index.js";
import { expandSkillCommand } from "../../skills/index.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_PROBLEMS, exitCodeFor } from "../io.js";
import { loadResources, type ResourceFlags } from "./_resources.js";

/** `sysprompt expand "<text>"`: a skill command, else a template, else the text as it is. */
export async function expandCommand(
  text: string,
  flags: ResourceFlags & { strict?: boolean },
  io: CliIo,
): Promise<number> {
  const { templates, skills } = await loadResources(flags, io);
  const viaSkill = expandSkillCommand(text, skills.skills);
  const viaTemplate =
    viaSkill !== text
      ? { text: viaSkill, diagnostics: [] }
      : expandPromptTemplateResult(text, templates.templates);
  const expanded = viaTemplate.text;
  (io.product ?? io.stdout)(expanded.endsWith("\n") ? expanded : `${expanded}\n`);
  const diagnostics = [...templates.diagnostics, ...skills.diagnostics, ...viaTemplate.diagnostics];
  io.stderr(formatDiagnostics(diagnostics));
  // The one output of this command is wrong when it could not be made: that fails without --strict.
  if (viaTemplate.diagnostics.length > 0) return EXIT_PROBLEMS;
  return exitCodeFor(diagnostics, flags.strict);
}
