export { agentConfigFile, applyConfigFiles, type ConfiguredOptions } from "./apply.js";
export { CONFIG_KEY_NAMES, CONFIG_KEYS, VAR_NAME, varNameProblem } from "./keys.js";
export { type ConfigFolders, loadConfigFiles, readConfigFile } from "./load.js";
export { mergeConfig, projectVarNames } from "./merge.js";
export { MAX_KEY_PROBLEMS, parseConfig } from "./parse.js";
export {
  CONFIG_FILE_NAME,
  type ConfigFile,
  type ConfigLayer,
  type ConfigValues,
  MAX_CONFIG_FILE_BYTES,
  type OptionProvenance,
} from "./types.js";
