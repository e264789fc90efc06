export type { Engine, PartialFunction, PrecompiledTemplate, RenderOptions } from "./engine.js";
export { capMessage, createEngine, TemplateError } from "./engine.js";
export { formatPrompt } from "./format.js";
