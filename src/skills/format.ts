import { escapeXml } from "../../helpers/xml.js";
import { blockClosing, leavesOpen, withLine } from "../_fence.js";
import {
  ELEMENT_END,
  oneLine,
  printedLength,
  repositoryNames,
  xmlValueText,
} from "../_prompt-text.js";
import { wellFormed } from "../_text.js";
import { formatPrompt } from "../engine/index.js";
import { SyspromptError } from "../types.js";
import type { Skill, SkillsTool } from "./types.js";

const HEADERS: Record<SkillsTool, string> = {
  read: [
    "Skills are folders of instructions for particular kinds of work. Each one below has a description of when it applies.",
    "When the task in front of you matches a skill's description, open the file at its location with the read tool before you begin, and follow what it says.",
    "Paths written inside a skill are relative to the folder that holds its file.",
  ].join("\n"),
  bash: [
    "Skills are folders of instructions for particular kinds of work. Each one below has a description of when it applies.",
    "When the task in front of you matches a skill's description, print the file at its location through bash (for example `cat <location>`) before you begin, and follow what it says.",
    "Paths written inside a skill are relative to the folder that holds its file.",
  ].join("\n"),
};

/**
 * The elements a repository's skill may not write in the library's index
 * ({@link formatSkillsForPrompt}): the index's own, the prompt's section it
 * stands in, and the host's (a chat's `<system>`, its tokens), as every
 * repository text's names ({@link repositoryNames}: the owner mark held too,
 * as the prompt's own index holds it).
 */
const INDEX_ELEMENTS: ReadonlySet<string> = repositoryNames([
  "skills",
  "available_skills",
  "skill",
  "name",
  "description",
  "location",
]);

/**
 * Bytes of the repository's skills (name, description and location) the
 * index lists at most, as context files (2 MiB) and rule files (1 MiB) have a
 * total: 3,000 skills of 1 KiB descriptions made a 3.5 MB prompt, and past
 * 8 MiB the whole section, the user's skills with it, was left out.
 */
export const MAX_SKILLS_INDEX_BYTES = 1024 * 1024;

/**
 * The skills the index lists, yours first (your folders' and the paths you
 * named out of the project, then the repository's, each part in the order
 * given, as the rule files section lists your rules first; before, a
 * trusted project's skills came before yours, review rev50c F5): those the model may invoke
 * (not `disableModelInvocation`); every one of the user's (and those of paths
 * the caller named), which count against the total first; the repository's
 * until they reach {@link MAX_SKILLS_INDEX_BYTES}, counted as the index prints
 * them (one line, XML-escaped: {@link printedLength}). `left` counts the
 * repository's left out.
 */
export function skillsForIndex(skills: readonly Skill[]): { listed: Skill[]; left: number } {
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  // Counted as printed: escaping makes `&` five bytes, so 1 MiB of raw `&` printed 5 MB; a
  // control character in a folder's name six (`\u0001`): 300 skills under folders of 240 of
  // them, counted raw, printed 6.17 MB and pushed the prompt past 8 MiB (review rev36c).
  const size = (s: Skill) =>
    printedLength(s.name, "xml-line") +
    printedLength(closedDescription(s.description), "xml") +
    printedLength(s.filePath, "xml-line");
  let total = 0;
  for (const s of visible) if (s.source !== "project") total += size(s);
  let left = 0;
  const theirs = visible.filter((s) => {
    if (s.source !== "project") return false;
    if (left > 0 || total + size(s) > MAX_SKILLS_INDEX_BYTES) {
      left++;
      return false;
    }
    total += size(s);
    return true;
  });
  return { listed: [...visible.filter((s) => s.source !== "project"), ...theirs], left };
}

/**
 * The skills index for the system prompt: a short instruction for `tool`, then
 * `<available_skills>` listing each skill the model may invoke (those with
 * `disableModelInvocation` are left out, and the repository's past
 * {@link MAX_SKILLS_INDEX_BYTES}), every value XML-escaped, and a
 * repository's with no tag of the index's or the host's elements (a
 * look-alike `＜/skill＞` written `&lt;/skill＞`, {@link INDEX_ELEMENTS}). Empty when
 * no skill is visible or `tool` is `"none"`. Yours are listed first, then the repository's ({@link skillsForIndex}).
 *
 * @param tool Default `"read"`, the tool `selectSkillsTool` prefers.
 * @throws SyspromptError for a `tool` other than read, bash or none.
 */
export function formatSkillsForPrompt(
  skills: readonly Skill[],
  tool: SkillsTool | "none" = "read",
): string {
  if (tool === "none") return "";
  if (!Object.hasOwn(HEADERS, tool)) {
    throw new SyspromptError(
      "bad-option",
      `formatSkillsForPrompt: tool must be "read", "bash" or "none", got ${JSON.stringify(tool)}`,
    );
  }
  const visible = skillsForIndex(skills).listed;
  if (visible.length === 0) return "";
  const lines = [HEADERS[tool], "", "<available_skills>"];
  for (const skill of visible) {
    // The repository's skill is its text, held as the prompt's data holds it (prompt-data.ts).
    const held = skill.source === "project" ? INDEX_ELEMENTS : undefined;
    lines.push(
      "  <skill>",
      `    <name>${xmlValueText(oneLine(skill.name), held)}</name>`,
      `    <description>${xmlValueText(closedDescription(skill.description), held)}</description>`,
      `    <location>${xmlValueText(oneLine(skill.filePath), held)}</location>`,
      "  </skill>",
    );
  }
  lines.push("</available_skills>");
  // The same whitespace pass as every rendered section (trailing spaces,
  // runs of blank lines in a multi-line description), so this text and the
  // prompt's skills section stay byte-identical (a lone surrogate made U+FFFD there too).
  return wellFormed(formatPrompt(lines.join("\n")));
}

/**
 * A skill's description as the index shows it: it may hold several lines, and
 * a fence they open is closed on a line of its own inside `<description>`, so
 * it cannot run on over the index and the sections after it. It is read as
 * printed, escaped and after `<description>` on its line; when that line could
 * change what is open at its end, it starts after a blank line. A description
 * of more than one line ends with a blank line, so `</description>` stands at
 * the start of a line after it: a list item or block quote the description
 * leaves open ends there, and the index's next lines (the next skill's
 * description) are not read inside it, where the closer chosen for that
 * description as a text of its own would close nothing. The prompt's skills
 * section and {@link formatSkillsForPrompt} share it.
 */
export function closedDescription(description: string): string {
  // Read as the index prints it: escaped, so `<div>` or `> ` shapes no block there.
  const escaped = escapeXml(description);
  const { lead, closer } = blockClosing(escaped, true);
  const closed =
    lead === "" && closer === undefined
      ? description
      : `${lead}${closer === undefined ? description : withLine(description, closer)}`;
  if (hasLineBreak(closed)) return `${closed}${ELEMENT_END}`;
  // `</description>` ends the last line: on a fence's closing line it closes nothing.
  return leavesOpen(`${escaped}</description>`, true)
    ? `${description}${ELEMENT_END}`
    : description;
}

/** True when `text` holds a line break (LF, CR): a line of its own for `</description>` after it. */
function hasLineBreak(text: string): boolean {
  return text.includes("\n") || text.includes("\r");
}
