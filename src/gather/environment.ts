import type { EnvironmentEntry } from "../data.js";

const OS_NAMES: Record<string, string> = {
  linux: "Linux",
  darwin: "macOS",
  win32: "Windows",
  freebsd: "FreeBSD",
  openbsd: "OpenBSD",
  sunos: "SunOS",
  aix: "AIX",
};

/**
 * The environment lines the prompt states by default. Inputs are values (not
 * `process.*`) so tests and snapshots can pin them.
 */
export function detectEnvironment(machine: { platform: string; arch: string }): EnvironmentEntry[] {
  return [
    { label: "Operating system", value: OS_NAMES[machine.platform] ?? machine.platform },
    { label: "Architecture", value: machine.arch },
  ];
}
