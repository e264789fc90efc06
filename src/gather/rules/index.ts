// Rules of other agents' formats (Cursor, Windsurf, Cline, Copilot, Claude
// Code, Gemini CLI, Kiro, Roo, Continue, Zed) and sysprompt's own.
export { accountDiagnostic } from "./account.js";
export { ruleBase } from "./base.js";
export { dedupeRules, type StatedText } from "./dedupe.js";
export { MAX_RULE_FOLDER_DEPTH } from "./discover.js";
export {
  DEFAULT_RULE_SOURCES,
  RULE_ENTRY_NAMES,
  RULE_FORMATS,
  RULE_LOCATION_LEVELS,
  RULE_SOURCE_NAMES,
  type RulePlace,
  ruleLocationOf,
} from "./formats.js";
export { geminiContextNames, settingsNamedHidden } from "./gemini-settings.js";
export {
  globMatcher,
  globSuffixes,
  MAX_GLOB_PATH_SEGMENTS,
  tooDeepForGlobs,
} from "./globs.js";
export {
  checkRuleSources,
  DEFAULT_MAX_RULES_TOTAL_BYTES,
  dedupeLoaded,
  type LoadRulesOptions,
  loadRules,
  rulesSoFar,
  traceRules,
} from "./load.js";
export {
  belowCwdFormats,
  findRulesBelowCwd,
  loadFolderRules,
  MAX_BELOW_CWD_DEPTH,
} from "./nested.js";
export { finishRules } from "./prompt.js";
export type {
  LoadedRules,
  Rule,
  RuleAccount,
  RuleActivation,
  RuleFate,
  RuleSource,
} from "./types.js";
