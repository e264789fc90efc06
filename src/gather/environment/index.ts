// The environment step: the machine (OS, CPU, terminal, time zone), probes run
// only from system binaries, and the GPU answer cached per machine.
export {
  detectEnvironment,
  type EnvironmentOptions,
  type EnvironmentResult,
  envCacheLocation,
  environmentStep,
  type Machine,
  type ProbeResult,
  type ProbeRunner,
  staticEnvironment,
} from "./environment.js";
export { realMachine } from "./machine.js";
export { runProbe } from "./probe.js";
export {
  agentDirInProject,
  agentDirUnread,
  childPathEntries,
  findSystemBinary,
  projectFolders,
  projectHome,
  projectOwns,
  projectRoots,
  SHARED_AGENT_DIR,
  systemBinaries,
  systemPathEntries,
  UNREAD_AGENT_DIR,
} from "./system-binary.js";
