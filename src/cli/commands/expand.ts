import { pushAll } from "../../_arrays.js";
import { didYouMean } from "../../_suggest.js";
import { capMessage } from "../../engine/index.js";
import type { PromptTemplate } from "../../prompt-templates/index.js";
import { expandPromptTemplateResult, splitSlashCommand } from "../../prompt-templates/index.js";
import type { Skill } from "../../skills/index.js";
import { expandSkillCommandAsync } from "../../skills/index.js";
import type { Diagnostic } from "../../types.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_PROBLEMS, exitCodeFor, UsageError } from "../io.js";
import { loadResources, type ResourceFlags } from "./_resources.js";

const SKILL_PREFIX = "skill:";

/**
 * `sysprompt expand "<text>"`: a skill command, else a template, else the text
 * as it is. A command that names no template or skill is a bad explicit
 * argument: exit 2, nothing on stdout, the near matches on stderr (after the
 * loaders' diagnostics, which may say why a name is missing). Text that is not
 * a command is printed as it is.
 */
export async function expandCommand(
  text: string,
  flags: ResourceFlags & { strict?: boolean },
  io: CliIo,
): Promise<number> {
  const { templates, skills, hints, project } = await loadResources(flags, io);
  const told: Diagnostic[] = [];
  // Read through the asynchronous door, as loadSkills read it: under --untrusted your skill in a
  // checkout of yours is read with that checkout's private files refused (review rev102a F2).
  const viaSkill = await expandSkillCommandAsync(text, skills.skills, {
    ...project,
    onDiagnostic: (d) => told.push(d),
  });
  const viaTemplate =
    viaSkill !== text
      ? { text: viaSkill, diagnostics: [] }
      : expandPromptTemplateResult(text, templates.templates);
  const expanded = viaTemplate.text;
  const diagnostics = [
    ...templates.diagnostics,
    ...skills.diagnostics,
    ...hints,
    ...told,
    ...viaTemplate.diagnostics,
  ];
  const unknownName =
    expanded === text ? unknownCommand(text, templates.templates, skills.skills) : undefined;
  if (unknownName !== undefined) {
    io.stderr(formatDiagnostics(diagnostics));
    // Capped: the message quotes the command's name, which may be any length.
    throw new UsageError(capMessage(unknownName));
  }
  (io.product ?? io.stdout)(expanded);
  if (expanded === text) pushAll(diagnostics, unreadableSkill(text, skills.skills));
  io.stderr(formatDiagnostics(diagnostics));
  // The one output of this command is wrong when it could not be made: that fails without --strict.
  if (viaTemplate.diagnostics.some((d) => d.level === "error")) return EXIT_PROBLEMS;
  return exitCodeFor(diagnostics, flags.strict);
}

/** The slash command `text` names, unless it is not one or its name has a `/` (`/usr/bin/env` opens a path). */
function commandName(text: string): string | undefined {
  const command = splitSlashCommand(text);
  return command && !command.name.includes("/") ? command.name : undefined;
}

/** The skill a `/skill:name` command names when it exists but its file could not be read. */
function unreadableSkill(text: string, skills: readonly Skill[]): Diagnostic[] {
  const name = commandName(text);
  if (!name?.startsWith(SKILL_PREFIX)) return [];
  const skill = skills.find((s) => s.name === name.slice(SKILL_PREFIX.length));
  if (!skill) return [];
  return [
    {
      level: "error",
      code: "command-unreadable",
      message: `skill ${JSON.stringify(skill.name)} could not be read, so it was not expanded`,
      path: skill.filePath,
    },
  ];
}

/**
 * Why a slash command came back as it was when no template or skill has its
 * name: the message of the usage error, with the near matches. Undefined when
 * the text is not a command, or the name exists (it expanded to itself, or a
 * skill's file could not be read).
 */
function unknownCommand(
  text: string,
  templates: readonly PromptTemplate[],
  skills: readonly Skill[],
): string | undefined {
  const name = commandName(text);
  if (name === undefined) return undefined;
  const skillNames = skills.map((s) => s.name);
  if (name.startsWith(SKILL_PREFIX)) {
    const skill = name.slice(SKILL_PREFIX.length);
    if (skillNames.includes(skill)) return undefined;
    const near = didYouMean(skill, skillNames, (s) => `/${SKILL_PREFIX}${s}`);
    return unknown(`no skill is called ${JSON.stringify(skill)}`, near, skillNames.length === 0);
  }
  const templateNames = templates.map((t) => t.name);
  // It exists and expanded to the very text given: nothing to say.
  if (templateNames.includes(name)) return undefined;
  // A template wins where a skill has the same name, as in an expansion.
  const shown = new Map<string, string>();
  for (const s of skillNames) shown.set(s, `/${SKILL_PREFIX}${s}`);
  for (const t of templateNames) shown.set(t, `/${t}`);
  // `/pdf` for the skill pdf: the one match, and not a typo.
  const near = skillNames.includes(name)
    ? `did you mean /${SKILL_PREFIX}${name}?`
    : didYouMean(name, shown.keys(), (n) => shown.get(n) ?? n);
  return unknown(
    `no prompt template or skill is called ${JSON.stringify(name)}`,
    near,
    shown.size === 0,
  );
}

function unknown(what: string, near: string | undefined, none: boolean): string {
  const hint =
    near ?? (none ? "there are none here" : "`sysprompt list` shows the names there are");
  return `${what}; ${hint}`;
}
