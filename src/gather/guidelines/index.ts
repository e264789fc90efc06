// The tools and guidelines steps: the selected tools' snippets, and the
// guideline bullets (ours, the tools', the caller's) deduped against stated text.
export {
  buildRules,
  dropStatedRules,
  parseRuleList,
  SHELL_SEARCH_RULE,
  statedText,
} from "./guidelines.js";
export {
  buildToolSnippets,
  DEFAULT_TOOLS,
  isTool,
  parseToolDescriptions,
  selectSkillsTool,
  toolEntry,
  unknownToolDiagnostics,
} from "./tools.js";
