import { readlinkSync } from "node:fs";
import { cpus, hostname, release } from "node:os";
import { readTextFile } from "../../_fs.js";
import { type ProbeRunner, runProbe } from "./probe.js";

export type { ProbeResult, ProbeRunner } from "./probe.js";

/**
 * The machine the environment section describes. Every field beyond
 * `platform` and `arch` is optional: a fact that is not given is not stated,
 * and a capability that is not given (`readFile`, `cpuModel`, `runProbe`) is
 * not used — so a test that passes `{ platform, arch }` reads no file and
 * starts no process.
 */
export interface Machine {
  /** `process.platform` values: linux, darwin, win32, … */
  platform: string;
  arch: string;
  /** Kernel release (`os.release()`). */
  release?: string;
  /** Host name; part of the key of the cached GPU answer. */
  hostname?: string;
  /** IANA time zone of the machine (Intl's); `TZ` in the environment variables wins. */
  timeZone?: string;
  /** Reads a small system file (/proc/cpuinfo, /etc/os-release); rejects when it cannot. */
  readFile?: (path: string) => Promise<string>;
  /** CPU model on platforms without /proc/cpuinfo (macOS, Windows). */
  cpuModel?: () => string | undefined;
  /** Runs the GPU probe (lspci, system_profiler, PowerShell), given its absolute path. */
  runProbe?: ProbeRunner;
  /**
   * Finds a probe's binary by name: an absolute path, or undefined when the
   * machine has none. `exclude`: the folders the project controls. Default:
   * `findSystemBinary` on the `PATH` of the render's environment variables
   * (absolute entries only, nothing inside an excluded folder).
   */
  findBinary?: (name: string, exclude: readonly string[]) => Promise<string | undefined>;
}

/** System files are small; anything bigger is not what we are looking for. */
const MAX_SYSTEM_FILE_BYTES = 1024 * 1024;

async function readSystemFile(path: string): Promise<string> {
  const read = await readTextFile(path, MAX_SYSTEM_FILE_BYTES);
  if (!read.ok) throw new Error(`${path}: ${read.reason}`);
  return read.text;
}

/**
 * The zone /etc/localtime links to (`…/zoneinfo/Europe/Berlin`), else Intl's.
 * The link first because it is one syscall, where the first Intl date
 * formatter of a process loads ICU data: 60-110 ms of a CLI run.
 */
function machineTimeZone(): string | undefined {
  if (process.platform !== "win32") {
    try {
      const target = readlinkSync("/etc/localtime");
      const at = target.lastIndexOf("zoneinfo/");
      if (at >= 0) return target.slice(at + "zoneinfo/".length);
    } catch {
      // Not a link (some images copy the zone file) or not there: ask Intl.
    }
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The machine this process runs on. */
export function realMachine(): Machine {
  return {
    platform: process.platform,
    arch: process.arch,
    release: release(),
    hostname: hostname(),
    timeZone: machineTimeZone(),
    readFile: readSystemFile,
    // Not on Linux: there the model comes from /proc/cpuinfo (os.cpus() reads
    // every core's stats synchronously and is empty in some containers).
    cpuModel: () => cpus()[0]?.model,
    runProbe,
  };
}
