export { checkProject } from "./check.js";
export { builtinSectionNames, ejectSections } from "./eject.js";
export type {
  AuthorOptions,
  CheckedTemplate,
  CheckOptions,
  CheckReport,
  EjectedFile,
  EjectOptions,
  EjectResult,
} from "./types.js";
