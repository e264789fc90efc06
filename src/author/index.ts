export { checkProject } from "./check.js";
export { builtinSectionNames, ejectSections } from "./eject.js";
export { renderScenario, runSnapshots } from "./snapshot.js";
export type {
  AuthorOptions,
  CheckedTemplate,
  CheckOptions,
  CheckReport,
  EjectedFile,
  EjectOptions,
  EjectResult,
  GoldenFile,
  RenderedScenario,
  ScenarioOutcome,
  SnapshotOptions,
  SnapshotReport,
} from "./types.js";
