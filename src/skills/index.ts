export { MAX_SKILL_FOLDER_ENTRIES, SKILL_FILE } from "./_walk.js";
export {
  type ExpandSkillOptions,
  expandSkillCommand,
  expandSkillCommandAsync,
} from "./expand.js";
export { formatSkillsForPrompt } from "./format.js";
export { loadSkillFromFile, loadSkills, loadSkillsFromDir, skillRoots } from "./load.js";
export type {
  LoadSkillsOptions,
  LoadSkillsResult,
  Skill,
  SkillSource,
  SkillsTool,
} from "./types.js";
export {
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  nameProblems,
  type ParsedSkill,
  parseSkill,
} from "./validate.js";
