export { parseCommandArgs } from "./args.js";
export { expandPromptTemplate, type SlashCommand, splitSlashCommand } from "./expand.js";
export { loadPromptTemplates, loadPromptTemplatesSync } from "./load.js";
export {
  MAX_DESCRIPTION_LENGTH,
  type ParsedPromptTemplate,
  parsePromptTemplate,
} from "./parse.js";
export { substituteArgs } from "./substitute.js";
export type {
  LoadPromptTemplatesOptions,
  LoadPromptTemplatesResult,
  PromptTemplate,
  PromptTemplateSource,
} from "./types.js";
