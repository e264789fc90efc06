export { scanTags } from "./_scan.js";
export { type TemplateSize, templateSize } from "./_shape.js";
export type {
  CountedTemplate,
  Engine,
  PartialFunction,
  PrecompiledTemplate,
  RenderOptions,
} from "./engine.js";
export {
  capMessage,
  createEngine,
  PromptCompiles,
  PromptWork,
  TemplateError,
} from "./engine.js";
export { formatPrompt } from "./format.js";
export { MAX_PROMPT_CHARS } from "./limits.js";
export { capDiagnostics } from "./message.js";
export { parseTemplate, type TemplateAst } from "./parse.js";
