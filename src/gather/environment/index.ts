// The environment step: the machine (OS, CPU, terminal, time zone), probes run
// only from system binaries, and the GPU answer cached per machine.
export {
  detectEnvironment,
  type EnvironmentOptions,
  type EnvironmentResult,
  environmentStep,
  type Machine,
  type ProbeResult,
  type ProbeRunner,
  staticEnvironment,
} from "./environment.js";
