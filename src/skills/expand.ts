import { homedir } from "node:os";
import { escapeXml } from "../../helpers/xml.js";
import { parseFrontmatter } from "../_frontmatter.js";
import { projectReachSync, readRepoTextSync } from "../repo-files/index.js";
import type { Skill } from "./types.js";

const COMMAND = /^\/skill:(\S+)(?:\s+([\s\S]*))?$/;

/**
 * Expands `/skill:name rest` into the skill's instructions followed by the
 * user's request. The skill file is read now, so the latest version is used;
 * hidden skills (`disableModelInvocation`) can still be invoked by the user.
 * Text that is not a skill command, an unknown name or a file that cannot be
 * read leaves `text` unchanged.
 */
export function expandSkillCommand(text: string, skills: readonly Skill[]): string {
  const match = COMMAND.exec(text);
  if (!match?.[1]) return text;
  const name = match[1];
  const rest = (match[2] ?? "").trim();
  const skill = skills.find((s) => s.name === name);
  if (!skill) return text;
  // A project's skill is read again within its project, found from its own folder.
  const reach =
    skill.source === "project"
      ? projectReachSync({ start: skill.baseDir, home: homedir() })
      : undefined;
  const read = readRepoTextSync(skill.filePath, { reach });
  if (!read.ok) return text;
  const body = parseFrontmatter(read.text, skill.filePath).body.trim();

  const block = [
    `<skill name="${escapeXml(skill.name)}" location="${escapeXml(skill.filePath)}">`,
    `The user asked to apply the skill "${skill.name}" (${skill.filePath}).`,
    `Paths written inside it are relative to its folder: ${skill.baseDir}`,
    ...(body === "" ? [] : ["", body]),
    "</skill>",
  ].join("\n");
  return rest === "" ? block : `${block}\n\nThe user's request:\n${rest}`;
}
