// Public API of sysprompt. Internal modules start with `_` or live in stage folders.

// The escaping the skills section and `{{escapeXml}}` use, for hosts that write XML blocks of their own.
export { escapeXml } from "../helpers/xml.js";
export {
  type AuthorOptions,
  type CheckedTemplate,
  type CheckOptions,
  type CheckReport,
  checkProject,
  type EjectedFile,
  type EjectOptions,
  type EjectResult,
  type ExplainedContextFile,
  type ExplainedRule,
  type ExplainedSection,
  type ExplainedSetting,
  type ExplainReport,
  ejectSections,
  explainPrompt,
  type GoldenFile,
  renderScenario,
  runSnapshots,
  type ScenarioOutcome,
  type ScenarioRenderOptions,
  type SimulationReport,
  type SnapshotOptions,
  type SnapshotReport,
  simulatePrompt,
  type WatchHooks,
  type WatchRender,
  watchPrompt,
} from "./author/index.js";
export {
  type BudgetedOutput,
  type BudgetOptions,
  renderWithinBudget,
} from "./budget/fit.js";
export type {
  AlwaysRule,
  ContextFile,
  EnvironmentEntry,
  OnDemandRule,
  PromptData,
  SkillEntry,
  ToolSnippet,
  WorkspaceTree,
} from "./data.js";
export { PROMPT_DATA_FIELDS, PROMPT_DATA_SCHEMA, type SchemaNode } from "./data.js";
export { diffSections } from "./diff.js";
export { createEngine, type Engine, formatPrompt, TemplateError } from "./engine/index.js";
export {
  type ContextFilesOptions,
  type ContextForOptions,
  dedupeContextFiles,
  loadContextFiles,
  loadContextForPaths,
  type TouchedContext,
  type TouchedFile,
} from "./gather/context/index.js";
export type { Machine, ProbeResult, ProbeRunner } from "./gather/environment/index.js";
export { selectSkillsTool } from "./gather/guidelines/index.js";
export {
  DEFAULT_RULE_SOURCES,
  type LoadRulesOptions,
  loadRules,
  RULE_SOURCE_NAMES,
  type Rule,
  type RuleAccount,
  type RuleActivation,
  type RuleFate,
  type RuleSource,
  traceRules,
} from "./gather/rules/index.js";
export {
  type BuiltWorkspace,
  type BuiltWorkspaceTree,
  buildWorkspaceTree,
  buildWorkspaceTrees,
  type WorkspaceTreeOptions,
} from "./gather/tree/index.js";
export type { PreloadedSkill, SystemPromptOptions } from "./options.js";
export {
  expandPromptTemplate,
  expandPromptTemplateResult,
  loadPromptTemplates,
  loadPromptTemplatesSync,
  MAX_EXPANDED_CHARS,
  type PromptTemplate,
  parseCommandArgs,
  substituteArgs,
} from "./prompt-templates/index.js";
export {
  type AnthropicSystemBlock,
  anthropicSystem,
  MAX_CACHE_BREAKPOINTS,
  type OpenAiSystemMessage,
  openAiSystemMessage,
} from "./provider/system-content.js";
export {
  type PreparedPrompt,
  preparePrompt,
  renderPrepared,
  renderSystemPrompt,
} from "./render-system-prompt.js";
export {
  type OptionOrigin,
  type OptionSource,
  type ResolvedOptions,
  resolveOptions,
} from "./resolve-options.js";
export { layerSections } from "./sections/layer.js";
export {
  type RenderInput,
  type RenderOutput,
  renderSections,
  type SectionPatch,
} from "./sections/render.js";
export type {
  CacheClass,
  SectionMeta,
  SectionTemplate,
  SectionVariant,
} from "./sections/types.js";
export { matchGlob, VARIANT_NAME, variantForModel } from "./sections/variants.js";
export { type ServeHooks, servePrompt } from "./serve/serve.js";
export {
  createPromptSession,
  type PromptSession,
  SESSION_FIXED_OPTIONS,
  type SessionFixedOption,
  type SessionOverrides,
  type SessionRender,
  type SessionSettings,
} from "./session/index.js";
export {
  type ExpandSkillOptions,
  expandSkillCommand,
  expandSkillCommandAsync,
  formatSkillsForPrompt,
  loadSkills,
  type Skill,
} from "./skills/index.js";
export type {
  Diagnostic,
  DiagnosticLevel,
  Layer,
  PromptBlock,
  RenderedSection,
  RenderResult,
  SectionSource,
  StepStatus,
  StepTiming,
} from "./types.js";
export {
  type BudgetCut,
  type BudgetReport,
  type BudgetSkip,
  SHRINK_STEPS,
  type ShrinkSpec,
  type ShrinkStepName,
  SyspromptError,
} from "./types.js";
export { VERSION } from "./version.js";
