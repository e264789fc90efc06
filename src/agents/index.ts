export { type AppliedPreset, applyPreset } from "./apply.js";
export {
  defaultExportPath,
  projectFolderName,
  quotePath,
  settingLine,
  writeExport,
} from "./export.js";
export {
  agentSendsKept,
  checkPresets,
  DEFAULT_AGENT,
  loadChosenPreset,
  loadPreset,
  MAX_PRESET_BYTES,
  presetDirs,
  presetNames,
} from "./load.js";
export { PRESET_NAME, parsePreset } from "./parse.js";
export type { AgentPreset, ExportSpec, PathQuote, PresetReport } from "./types.js";
