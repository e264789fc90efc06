export type { Engine, PartialFunction, RenderOptions } from "./engine.js";
export { createEngine, TemplateError } from "./engine.js";
export { formatPrompt } from "./format.js";
