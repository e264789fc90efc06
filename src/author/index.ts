export { checkProject } from "./check.js";
export { builtinSectionNames, ejectSections } from "./eject.js";
export { explainPrompt } from "./explain.js";
export {
  type Break,
  type CacheClass,
  type ClassShare,
  type SimulatedAction,
  type SimulatedRow,
  type SimulateSettings,
  type SimulationReport,
  type Survival,
  simulatePrompt,
} from "./simulate.js";
export { renderScenario, runSnapshots } from "./snapshot.js";
export type {
  AuthorOptions,
  CheckedTemplate,
  CheckOptions,
  CheckReport,
  EjectedFile,
  EjectOptions,
  EjectResult,
  ExplainedContextFile,
  ExplainedRule,
  ExplainedSection,
  ExplainReport,
  GoldenFile,
  RenderedScenario,
  ScenarioOutcome,
  ScenarioRenderOptions,
  SnapshotOptions,
  SnapshotReport,
  WatchHooks,
  WatchRender,
} from "./types.js";
export { DEFAULT_DEBOUNCE_MS, watchPrompt } from "./watch.js";
