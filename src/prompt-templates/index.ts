export { planTemplateRoots } from "./_locate.js";
export { parseCommandArgs } from "./args.js";
export {
  expandPromptTemplate,
  expandPromptTemplateResult,
  type SlashCommand,
  splitSlashCommand,
} from "./expand.js";
export { loadPromptTemplates, loadPromptTemplatesSync } from "./load.js";
export {
  MAX_DESCRIPTION_LENGTH,
  type ParsedPromptTemplate,
  parsePromptTemplate,
} from "./parse.js";
export { MAX_EXPANDED_CHARS, substituteArgs } from "./substitute.js";
export type {
  LoadPromptTemplatesOptions,
  LoadPromptTemplatesResult,
  PromptTemplate,
  PromptTemplateSource,
} from "./types.js";
