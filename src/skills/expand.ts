import { dirname, resolve } from "node:path";
import { closeOpenBlocks, markupAsTextTold, pageTagWarning, wrappedElement } from "../_fence.js";
import { parseFrontmatter } from "../_frontmatter.js";
import { isWithin } from "../_paths.js";
import {
  DOCUMENT_TAGS,
  escapeWrapperTags,
  HOST_ELEMENTS,
  nameText,
  xmlNameText,
} from "../_prompt-text.js";
import { resolveCommonPaths } from "../locate/layers.js";
import {
  ownFilesOf,
  ownFilesOfSync,
  projectReachSync,
  type RepoText,
  readRepoText,
  readRepoTextSync,
} from "../repo-files/index.js";
import type { Diagnostic } from "../types.js";
import type { LoadSkillsOptions, Skill } from "./types.js";

/**
 * The session's project, as given to {@link loadSkills}: a project's skill is
 * read again within it. `onDiagnostic`: told when the skill's text falls back
 * (markup written `&lt;` so that the user's request after it is shown): a
 * `skill-markup-as-text` warning naming its file; and why its file was not
 * read (a refusal's or a failed read's diagnostics), when it was not.
 */
export type ExpandSkillOptions = Pick<
  LoadSkillsOptions,
  "cwd" | "home" | "ceilingDir" | "env" | "agentDir" | "projectTrusted"
> & {
  onDiagnostic?: (diagnostic: Diagnostic) => void;
};

/**
 * The element an expansion wraps the skill in, and the host's elements (a
 * chat's `<system>`, `<user>`, Claude Code's `<system-reminder>`): the skill's
 * text may open or close none of them, so a project's skill cannot end the
 * skill and write a turn of the system or the user into your message.
 */
const SKILL_ELEMENT: ReadonlySet<string> = new Set(["skill", ...HOST_ELEMENTS]);

/** {@link SKILL_ELEMENT} for a project's skill: no start tag acting on the whole page either ({@link DOCUMENT_TAGS}, rev80c F4-F8). */
const PROJECT_SKILL_ELEMENT: ReadonlySet<string> = new Set([...SKILL_ELEMENT, DOCUMENT_TAGS]);

const COMMAND = /^\/skill:(\S+)(?:\s+([\s\S]*))?$/;

/**
 * Expands `/skill:name rest` into the skill's instructions followed by the
 * user's request. The skill file is read now, so the latest version is used;
 * hidden skills (`disableModelInvocation`) can still be invoked by the user.
 * Text that is not a skill command, an unknown name or a file that cannot be
 * read leaves `text` unchanged (why the file was not read told to
 * `onDiagnostic`). A project's skill is read within the project
 * of `options.cwd` (the options given to `loadSkills`; default the current
 * folder), never one found from the skill's own folder.
 */
export function expandSkillCommand(
  text: string,
  skills: readonly Skill[],
  options: ExpandSkillOptions = {},
): string {
  const command = skillCommand(text, skills);
  if (!command) return text;
  return expandRead(text, command, readSkillSync(command.skill, options), options);
}

/**
 * {@link expandSkillCommand}, your skill read through the asynchronous door
 * (`ownFilesOf`, as {@link loadSkills} read it): one whose real path lies in a
 * checkout is read under an untrusted render too, the checkout's private files
 * (its ignore rules) refused, which the synchronous door cannot ask and so
 * refuses the file whole (`sysprompt expand`, review rev102a F2). A project's
 * skill is read as {@link expandSkillCommand} reads it.
 */
export async function expandSkillCommandAsync(
  text: string,
  skills: readonly Skill[],
  options: ExpandSkillOptions = {},
): Promise<string> {
  const command = skillCommand(text, skills);
  if (!command) return text;
  const { skill } = command;
  let read: RepoText;
  if (skill.source === "project") read = readSkillSync(skill, options);
  else {
    const { agentDir, home, cwd } = resolveCommonPaths(options);
    const own = await ownFilesOf(agentDir, {
      home,
      trusted: options.projectTrusted !== false,
      cwd,
      env: options.env,
    });
    read = await readRepoText(skill.filePath, { own });
  }
  return expandRead(text, command, read, options);
}

/** The skill `/skill:name rest` names, and `rest`; undefined when `text` is no such command. */
function skillCommand(
  text: string,
  skills: readonly Skill[],
): { skill: Skill; rest: string } | undefined {
  const match = COMMAND.exec(text);
  if (!match?.[1]) return undefined;
  const name = match[1];
  const skill = skills.find((s) => s.name === name);
  return skill && { skill, rest: (match[2] ?? "").trim() };
}

/**
 * The skill's file read again by the synchronous door. A project's skill is read again within
 * the session's project, as loadSkills read it: found from the skill's own folder, a .git above
 * a ceiling (or a home other than the session's) would widen it, and a SKILL.md swapped since
 * for a link would be read. Your skill (yours, or one you named out of the project): one whose
 * real path lies in a checkout is read through that checkout's door, as loadSkills reads it
 * (review rev98a F1).
 */
function readSkillSync(skill: Skill, options: ExpandSkillOptions): RepoText {
  return readRepoTextSync(
    skill.filePath,
    skill.source === "project"
      ? { reach: sessionReach(options, skill.filePath) }
      : { own: yourFiles(options) },
  );
}

/**
 * The expansion of the skill's text `read`; `text` as it was when it could not be read, the
 * refusal's diagnostics told to `onDiagnostic` (never dropped: an untrusted render's skill of
 * yours in a checkout came back unexpanded with no word of why, review rev102a F2).
 */
function expandRead(
  text: string,
  { skill, rest }: { skill: Skill; rest: string },
  read: RepoText,
  options: ExpandSkillOptions,
): string {
  if (!read.ok) {
    for (const d of read.diagnostics) options.onDiagnostic?.(d);
    return text;
  }
  // The skill's text is the skill's: it cannot close the element and write
  // "The user's request:" after it, nor leave a fence or comment open over it.
  // Its markup written as text where it cannot be closed so is said (fx77c).
  const say = options.onDiagnostic;
  const body = closeOpenBlocks(
    escapeWrapperTags(
      parseFrontmatter(read.text, skill.filePath).body.trim(),
      skill.source === "project" ? PROJECT_SKILL_ELEMENT : SKILL_ELEMENT,
      false,
      say && ((line, tag) => say(pageTagWarning(skill.filePath, line, tag))),
    ),
    false,
    say && markupAsTextTold("skill-markup-as-text", skill.filePath, say),
  );

  // Its name and folder are names, data: on one line, opening none of the elements, and no
  // comment either (a folder `<!--x` left the body and the user's request inside one).
  const said = (value: string) => nameText(value, SKILL_ELEMENT);
  // Its end tag as every element of the prompt's is written (rev92c F3): after a body ending in
  // a paragraph, `</skill>` alone was that paragraph's text to CommonMark, and your request after
  // it stood inside `<skill>` in a Markdown-to-HTML view.
  const block = wrappedElement(
    // The attributes as the line below them writes the same name and folder (rev69a F5).
    `<skill name="${xmlNameText(skill.name, SKILL_ELEMENT)}" location="${xmlNameText(skill.filePath, SKILL_ELEMENT)}">`,
    [
      `The user asked to apply the skill "${said(skill.name)}" (${said(skill.filePath)}).`,
      `Paths written inside it are relative to its folder: ${said(skill.baseDir)}`,
      ...(body === "" ? [] : ["", body]),
    ].join("\n"),
    "skill",
  );
  return rest === "" ? block : `${block}\n\nThe user's request:\n${rest}`;
}

/** How your files are placed ({@link ownFilesOfSync}): the agent dir's and the trust given to loadSkills. */
function yourFiles(options: ExpandSkillOptions) {
  const { agentDir, home, cwd } = resolveCommonPaths(options);
  return ownFilesOfSync(agentDir, {
    home,
    trusted: options.projectTrusted !== false,
    cwd,
    env: options.env,
  });
}

/**
 * The session's project; for a skill the caller named by a path back into the
 * tree around it (`skillPaths: ["../skills"]` from a submodule or a tarball's
 * subfolder, which loadSkills read as the project's), the deepest folder the
 * skill's folder shares with the working folder, never `/` nor one holding the
 * home folder (then the session's project, which refuses it, as before).
 */
function sessionReach(options: ExpandSkillOptions, filePath: string) {
  const { cwd, home } = resolveCommonPaths(options);
  const ceiling = options.ceilingDir === undefined ? undefined : resolve(options.ceilingDir);
  const reach = projectReachSync({ start: cwd, home, ceiling });
  if (isWithin(filePath, reach.root) || isWithin(filePath, reach.realRoot)) return reach;
  let shared = cwd;
  while (!isWithin(filePath, shared) && dirname(shared) !== shared) shared = dirname(shared);
  if (dirname(shared) === shared || isWithin(resolve(home), shared)) return reach;
  return projectReachSync({ start: shared, home, ceiling: shared });
}
