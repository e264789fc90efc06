import { didYouMean } from "../../_suggest.js";
import { capDiagnostics } from "../../engine/index.js";
import type { PromptTemplate } from "../../prompt-templates/index.js";
import { expandPromptTemplateResult, splitSlashCommand } from "../../prompt-templates/index.js";
import type { Skill } from "../../skills/index.js";
import { expandSkillCommand } from "../../skills/index.js";
import type { Diagnostic } from "../../types.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_PROBLEMS, exitCodeFor } from "../io.js";
import { loadResources, type ResourceFlags } from "./_resources.js";

const SKILL_PREFIX = "skill:";

/**
 * `sysprompt expand "<text>"`: a skill command, else a template, else the text
 * as it is. A command that names no template or skill is still echoed (as pi
 * would send it), with an error on stderr naming the near matches, so
 * `--strict` exits 1.
 */
export async function expandCommand(
  text: string,
  flags: ResourceFlags & { strict?: boolean },
  io: CliIo,
): Promise<number> {
  const { templates, skills, hints } = await loadResources(flags, io);
  const viaSkill = expandSkillCommand(text, skills.skills);
  const viaTemplate =
    viaSkill !== text
      ? { text: viaSkill, diagnostics: [] }
      : expandPromptTemplateResult(text, templates.templates);
  const expanded = viaTemplate.text;
  (io.product ?? io.stdout)(expanded);
  const diagnostics = [
    ...templates.diagnostics,
    ...skills.diagnostics,
    ...hints,
    ...viaTemplate.diagnostics,
  ];
  if (expanded === text) {
    // Capped: the message quotes the command's name, which may be any length.
    diagnostics.push(
      ...capDiagnostics(unexpandedCommand(text, templates.templates, skills.skills)),
    );
  }
  io.stderr(formatDiagnostics(diagnostics));
  // The one output of this command is wrong when it could not be made: that fails without --strict.
  if (viaTemplate.diagnostics.length > 0) return EXIT_PROBLEMS;
  return exitCodeFor(diagnostics, flags.strict);
}

/**
 * Why a slash command came back as it was: no template or skill has its
 * name, or the skill's file could not be read. Text that is not a command
 * gives nothing, nor does one whose name has a `/` in it (`/usr/bin/env`
 * opens a path, not a command).
 */
function unexpandedCommand(
  text: string,
  templates: readonly PromptTemplate[],
  skills: readonly Skill[],
): Diagnostic[] {
  const command = splitSlashCommand(text);
  if (!command || command.name.includes("/")) return [];
  const skillNames = skills.map((s) => s.name);
  if (command.name.startsWith(SKILL_PREFIX)) {
    const name = command.name.slice(SKILL_PREFIX.length);
    const skill = skills.find((s) => s.name === name);
    if (skill) {
      return [
        {
          level: "error",
          code: "command-unreadable",
          message: `skill ${JSON.stringify(name)} could not be read, so it was not expanded`,
          path: skill.filePath,
        },
      ];
    }
    const near = didYouMean(name, skillNames, (s) => `/${SKILL_PREFIX}${s}`);
    return [unknown(`no skill is called ${JSON.stringify(name)}`, near, skillNames.length === 0)];
  }
  const templateNames = templates.map((t) => t.name);
  // It exists and expanded to the very text given: nothing to say.
  if (templateNames.includes(command.name)) return [];
  // A template wins where a skill has the same name, as in an expansion.
  const shown = new Map<string, string>();
  for (const s of skillNames) shown.set(s, `/${SKILL_PREFIX}${s}`);
  for (const t of templateNames) shown.set(t, `/${t}`);
  // `/pdf` for the skill pdf: the one match, and not a typo.
  const near = skillNames.includes(command.name)
    ? `did you mean /${SKILL_PREFIX}${command.name}?`
    : didYouMean(command.name, shown.keys(), (n) => shown.get(n) ?? n);
  return [
    unknown(
      `no prompt template or skill is called ${JSON.stringify(command.name)}`,
      near,
      shown.size === 0,
    ),
  ];
}

function unknown(what: string, near: string | undefined, none: boolean): Diagnostic {
  const hint =
    near ?? (none ? "there are none here" : "`sysprompt list` shows the names there are");
  return {
    level: "error",
    code: "command-unknown",
    message: `${what}, so the text is left as it is; ${hint}`,
  };
}
