// The context step: AGENTS.md / CLAUDE.md from the project root down to cwd,
// with their @imports (confined to the project), capped reads and paragraph dedupe.

export { type TextMeasure, UTF8_BYTES } from "./_context-total.js";
export {
  type ContextFilesOptions,
  type ContextFileTrace,
  type ContextProvenance,
  loadContextFiles,
  loadOwnContextFile,
  NO_CONTEXT,
  traceContextFiles,
} from "./context-files.js";
export { dedupeContextFiles, dedupeWithDropped } from "./dedupe.js";
export { expandImports, resolveImport } from "./imports.js";
export {
  type ContextForOptions,
  globRuleFolders,
  loadContextForPaths,
  loadContextForPathsSince,
  MAX_TOUCH_FOLDERS,
  MAX_TOUCH_PATHS,
  type TextCap,
  TOUCH_ELEMENT,
  type TouchedContext,
  type TouchedFile,
} from "./on-touch.js";
