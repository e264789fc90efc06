export { checkProject } from "./check/check.js";
export { builtinSectionNames, ejectSections, GENERAL_RULES } from "./eject/eject.js";
export { diffEjected } from "./eject/eject-diff.js";
export { explainPrompt } from "./explain/explain.js";
export { defaultSandboxParent } from "./sandbox.js";
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
} from "./simulate/simulate.js";
export { MAX_SNAPSHOT_DIFF_CHARS, renderScenario, runSnapshots } from "./snapshot/snapshot.js";
export type {
  AuthorOptions,
  CheckedTemplate,
  CheckOptions,
  CheckReport,
  EjectDiff,
  EjectDiffOptions,
  EjectDiffText,
  EjectedFile,
  EjectOptions,
  EjectResult,
  ExplainedContextFile,
  ExplainedRule,
  ExplainedSection,
  ExplainedSetting,
  ExplainReport,
  GoldenFile,
  LeftOutParagraphs,
  RenderedScenario,
  ScenarioOutcome,
  ScenarioRenderOptions,
  SnapshotOptions,
  SnapshotReport,
  WatchHooks,
  WatchRender,
} from "./types.js";
export { DEFAULT_DEBOUNCE_MS, watchPrompt } from "./watch/watch.js";
