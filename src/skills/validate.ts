import { basename, dirname } from "node:path";
import { pushAll } from "../_arrays.js";
import { parseFrontmatter } from "../_frontmatter.js";
import { type KnownKeys, unknownKeyDiagnostics } from "../_frontmatter-keys.js";
import type { Diagnostic } from "../types.js";
import type { Skill, SkillSource } from "./types.js";

/** Longest skill name the Agent Skills format allows. */
export const MAX_NAME_LENGTH = 64;
/** Longest description the Agent Skills format allows. */
export const MAX_DESCRIPTION_LENGTH = 1024;

const NAME_CHARACTERS = /^[a-z0-9-]+$/;

/**
 * The keys of the Agent Skills format, with those pi and Claude Code add. The
 * set is open (agents add their own), so only a likely typo of one of these
 * is reported: `disable-model-invocaton: true` would show a hidden skill.
 */
const SKILL_KEYS: KnownKeys = {
  keys: [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "disable-model-invocation",
    "user-invocable",
    "argument-hint",
    "model",
    "version",
  ],
  closed: false,
};

/** A validated skill, or `null` with the reason among the diagnostics. */
export interface ParsedSkill {
  skill: Skill | null;
  diagnostics: Diagnostic[];
}

/**
 * Turns the text of a skill file into a {@link Skill} without touching the
 * disk. Frontmatter that is not valid YAML is read line by line, with a
 * warning, as other agents read it. A missing description or a
 * refused block (`---js`, not a mapping) drops the skill; a name
 * or description that breaks the Agent Skills rules only warns, because a
 * skill written for another agent should still work here.
 */
export function parseSkill(text: string, filePath: string, source: SkillSource): ParsedSkill {
  const parsed = parseFrontmatter(text, filePath, { lenient: true });
  const diagnostics = [...parsed.diagnostics];
  if (diagnostics.some((d) => d.level === "error")) return { skill: null, diagnostics };

  const { data, keyLines } = parsed;
  const at = (key: string): Pick<Diagnostic, "path" | "line" | "column"> => {
    const line = keyLines.get(key);
    return line === undefined ? { path: filePath } : { path: filePath, line, column: 1 };
  };
  pushAll(
    diagnostics,
    unknownKeyDiagnostics(data, SKILL_KEYS, {
      code: "skill-key-unknown",
      path: filePath,
      keyLines,
    }),
  );

  const rawDescription = data.description;
  const description = typeof rawDescription === "string" ? rawDescription.trim() : "";
  if (description === "") {
    diagnostics.push({
      level: "error",
      code: "skill-description-required",
      message:
        rawDescription === undefined || typeof rawDescription === "string"
          ? "description is required; skill not loaded"
          : "description is required and must be text; skill not loaded",
      ...at("description"),
    });
    return { skill: null, diagnostics };
  }

  const folderName = basename(dirname(filePath));
  const rawName = data.name;
  let name = folderName;
  if (typeof rawName === "string" && rawName.trim() !== "") {
    name = rawName;
  } else if (rawName !== undefined && rawName !== null && typeof rawName !== "string") {
    diagnostics.push({
      level: "warning",
      code: "skill-name-invalid",
      message: `name must be text; using the folder name "${folderName}"`,
      ...at("name"),
    });
  }
  for (const message of nameProblems(name)) {
    diagnostics.push({ level: "warning", code: "skill-name-invalid", message, ...at("name") });
  }
  const descriptionLength = [...description].length;
  if (descriptionLength > MAX_DESCRIPTION_LENGTH) {
    diagnostics.push({
      level: "warning",
      code: "skill-description-too-long",
      message: `description is ${descriptionLength} characters, over the ${MAX_DESCRIPTION_LENGTH}-character limit`,
      ...at("description"),
    });
  }

  return {
    skill: {
      name,
      description,
      filePath,
      baseDir: dirname(filePath),
      disableModelInvocation: data["disable-model-invocation"] === true,
      source,
    },
    diagnostics,
  };
}

/** What is wrong with `name` under the Agent Skills naming rules, one message per rule. */
export function nameProblems(name: string): string[] {
  const problems: string[] = [];
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) {
    problems.push(`name is ${length} characters, over the ${MAX_NAME_LENGTH}-character limit`);
  }
  if (!NAME_CHARACTERS.test(name)) {
    problems.push(`name "${name}" should use only lowercase letters a-z, digits 0-9 and hyphens`);
  }
  if (name.startsWith("-") || name.endsWith("-")) {
    problems.push(`name "${name}" should not start or end with a hyphen`);
  }
  if (name.includes("--")) {
    problems.push(`name "${name}" should not contain consecutive hyphens`);
  }
  return problems;
}
