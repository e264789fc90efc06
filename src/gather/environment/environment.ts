import { pushAll } from "../../_arrays.js";
import type { EnvironmentEntry } from "../../data.js";
import type { Diagnostic } from "../../types.js";
import { type GatherStep, lifted } from "../deadline.js";
import {
  cacheInProject,
  type EnvCacheLocation,
  type MachineFingerprint,
  readGpuCache,
  writeGpuCache,
} from "./_env-cache.js";
import { formatGpuNames, type GpuAnswer, probeGpu } from "./_gpu.js";
import type { Machine } from "./machine.js";
import type { ProbeRunner } from "./probe.js";
import { findSystemBinary, projectFolders, systemPathEntries } from "./system-binary.js";

export type { EnvCacheLocation } from "./_env-cache.js";
export { envCacheLocation } from "./_env-cache.js";
export type { Machine } from "./machine.js";
export type { ProbeResult, ProbeRunner } from "./probe.js";

const OS_NAMES: Record<string, string> = {
  linux: "Linux",
  darwin: "macOS",
  win32: "Windows",
  freebsd: "FreeBSD",
  openbsd: "OpenBSD",
  sunos: "SunOS",
  aix: "AIX",
};

type Env = Readonly<Record<string, string | undefined>>;

export interface EnvironmentOptions {
  machine: Machine;
  /** Environment variables: the terminal, `TZ` and the `PATH` probes are found on come from here. */
  env: Env;
  /** Where the GPU answer is cached ({@link envCacheLocation}); without it nothing is cached. */
  cache?: EnvCacheLocation;
  /**
   * Folders the project controls (cwd, its project root, workspace roots): no
   * probe binary is taken from them, nor from a `PATH` entry inside them.
   */
  exclude?: readonly string[];
  /** The home folder, above which no folder is the project's (see `projectFolders`). Default: `homeFolder()`. */
  home?: string;
  /** How long the GPU probe may run before it is killed. Default: {@link GPU_PROBE_TIMEOUT_MS}. */
  gpuTimeoutMs?: number;
  /**
   * The render gave up waiting: a probe still running is killed, and its
   * answer (none) is neither cached nor kept for the next render.
   */
  signal?: AbortSignal;
}

export interface EnvironmentResult {
  entries: EnvironmentEntry[];
  diagnostics: Diagnostic[];
}

/** What the section states, before it becomes label/value lines. */
interface Facts {
  os: string;
  arch: string;
  cpu?: string | undefined;
  gpu?: string | undefined;
  terminal?: string | undefined;
  timeZone?: string | undefined;
}

function entriesOf(f: Facts): EnvironmentEntry[] {
  const lines: [string, string | undefined][] = [
    ["Operating system", f.os],
    ["Architecture", f.arch],
    ["CPU", f.cpu],
    ["GPU", f.gpu],
    ["Terminal", f.terminal],
    ["Time zone", f.timeZone],
  ];
  return lines
    .filter((l): l is [string, string] => l[1] !== undefined && l[1] !== "")
    .map(([label, value]) => ({ label, value }));
}

/**
 * The part that needs no I/O: OS name and kernel release, architecture,
 * terminal and time zone. It is also what a late environment step falls back
 * to before its file reads are done.
 */
export function staticEnvironment(machine: Machine, env: Env): EnvironmentEntry[] {
  return entriesOf(staticFacts(machine, env));
}

function staticFacts(machine: Machine, env: Env): Facts {
  return {
    os: osName(machine, undefined),
    arch: machine.arch,
    terminal: terminalOf(env),
    timeZone: timeZoneOf(env, machine.timeZone),
  };
}

/**
 * The environment lines, in a fixed order: operating system, architecture,
 * CPU, GPU, terminal, time zone (each left out when unknown). Only what
 * `machine` offers is used. The GPU answer comes from the cache when it
 * matches this machine, boot and version; otherwise the probe runs (a system
 * binary only, never one inside `exclude`, the project roots above them or
 * the process's folder) and its answer — a GPU, "none", or "could not tell"
 * — is cached.
 * `onProgress` sees the facts as they are learnt, for a late step's partial value.
 */
export async function detectEnvironment(
  options: EnvironmentOptions,
  onProgress?: (entries: EnvironmentEntry[]) => void,
): Promise<EnvironmentResult> {
  const { machine, env } = options;
  const read = (path: string) =>
    machine.readFile
      ? machine.readFile(path).then(
          (text) => text,
          () => undefined,
        )
      : Promise.resolve(undefined);
  const linux = machine.platform === "linux";
  const [osRelease, macVersion, cpuinfo, bootId] = await Promise.all([
    linux ? read("/etc/os-release") : undefined,
    machine.platform === "darwin"
      ? read("/System/Library/CoreServices/SystemVersion.plist")
      : undefined,
    linux ? read("/proc/cpuinfo") : undefined,
    linux ? read("/proc/sys/kernel/random/boot_id") : undefined,
  ]);
  const facts: Facts = {
    ...staticFacts(machine, env),
    os: osName(machine, linux ? distroName(osRelease) : macProductVersion(macVersion)),
    cpu: linux ? cpuModelFromCpuinfo(cpuinfo) : cleanCpuModel(machine.cpuModel?.()),
  };
  onProgress?.(entriesOf(facts));

  const diagnostics: Diagnostic[] = [];
  if (machine.runProbe) {
    const fingerprint: MachineFingerprint = {
      platform: machine.platform,
      arch: machine.arch,
      hostname: machine.hostname ?? "",
      release: machine.release ?? "",
      boot: bootId?.trim() ?? "",
    };
    // A cache folder inside the project is the repository's to fill: not trusted, not written.
    const cache =
      options.cache &&
      !(await cacheInProject(
        options.cache.path,
        options.exclude ?? [],
        options.home,
        options.signal,
      ))
        ? options.cache
        : undefined;
    let gpu: GpuAnswer | undefined = cache
      ? await readGpuCache(cache.path, fingerprint)
      : undefined;
    if (!gpu) {
      const { home } = options;
      const exclude = await projectFolders(
        options.exclude ?? [],
        systemPathEntries(env),
        home,
        options.signal,
      );
      const find = machine.findBinary
        ? (name: string) => machine.findBinary?.(name, exclude) ?? Promise.resolve(undefined)
        : (name: string) =>
            findSystemBinary(name, env, {
              exclude,
              platform: machine.platform,
              ...(home === undefined ? {} : { home }),
            });
      const runner = machine.runProbe;
      const run: ProbeRunner = (command, args, o) => runner(command, args, { ...o, exclude });
      gpu = await probeGpu(machine.platform, { run, find }, options.gpuTimeoutMs, options.signal);
      // Killed because the render stopped waiting, not because it could not tell: nothing to keep.
      if (options.signal?.aborted) throw options.signal.reason;
      if (cache) pushAll(diagnostics, await writeGpuCache(cache, fingerprint, gpu));
    }
    facts.gpu =
      gpu.status === "found"
        ? formatGpuNames(gpu.names)
        : gpu.status === "none"
          ? "none"
          : undefined;
  }
  return { entries: entriesOf(facts), diagnostics };
}

/**
 * The gathering step "environment". With `given` entries (the `environment`
 * option) nothing is detected: the step is skipped and they are the value.
 * Late, it gives what it has learnt so far (everything but the GPU, once the
 * system files are read). Its late work is kept under a key of every input,
 * so the next render in this process takes the finished answer instead of
 * probing again.
 */
export function environmentStep(
  options: EnvironmentOptions & { given?: readonly EnvironmentEntry[] | undefined },
): GatherStep<EnvironmentResult> {
  if (options.given) {
    return {
      name: "environment",
      run: undefined,
      fallback: { entries: [...options.given], diagnostics: [] },
    };
  }
  const { machine, env } = options;
  let soFar = staticEnvironment(machine, env);
  const step: GatherStep<EnvironmentResult> = {
    name: "environment",
    run: async () =>
      lifted(
        await detectEnvironment(options, (entries) => {
          soFar = entries;
        }),
      ),
    fallback: { entries: soFar, diagnostics: [] },
    partial: () => lifted({ entries: soFar, diagnostics: [] }),
    // The files it reads (/etc/os-release, the GPU cache) are checked on disk; these are the rest.
    inputs: {
      machine,
      cache: options.cache?.path,
      exclude: options.exclude,
      home: options.home,
      path: env.PATH,
      gpuTimeoutMs: options.gpuTimeoutMs,
      env: [...TERMINAL_VARS, "TZ"].map((name) => env[name]),
    },
  };
  if (machine.runProbe) {
    step.cacheKey = `environment\0${JSON.stringify([
      options.cache?.path ?? null,
      options.exclude ?? [],
      env.PATH ?? null,
      machine.platform,
      machine.arch,
      machine.release ?? null,
      machine.hostname ?? null,
      machine.timeZone ?? null,
      [...TERMINAL_VARS, "TZ"].map((v) => env[v] ?? null),
    ])}`;
  }
  return step;
}

function osName(machine: Machine, detail: string | undefined): string {
  const name = OS_NAMES[machine.platform] ?? machine.platform;
  const release = machine.release?.trim();
  if (machine.platform === "darwin") {
    // The kernel release (Darwin 23.4.0) is not the macOS version; say which it is.
    if (detail) return `${name} ${detail}`;
    return release ? `${name} (Darwin ${release})` : name;
  }
  const base = release ? `${name} ${release}` : name;
  return detail ? `${detail}, ${base}` : base;
}

/** `PRETTY_NAME` from /etc/os-release, else `NAME VERSION`. */
export function distroName(osRelease: string | undefined): string | undefined {
  if (!osRelease) return undefined;
  const fields = new Map<string, string>();
  for (const line of osRelease.split(/\r?\n/)) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m?.[1] && m[2] !== undefined) fields.set(m[1], m[2].replace(/^(["'])(.*)\1$/, "$2").trim());
  }
  const pretty = fields.get("PRETTY_NAME");
  if (pretty) return pretty;
  const name = [fields.get("NAME"), fields.get("VERSION")].filter((v) => v).join(" ");
  return name || undefined;
}

function macProductVersion(plist: string | undefined): string | undefined {
  if (!plist) return undefined;
  const m = /<key>ProductVersion<\/key>\s*<string>([^<]+)<\/string>/.exec(plist);
  return m?.[1]?.trim() || undefined;
}

/**
 * The CPU model from /proc/cpuinfo: `model name` on x86, else the fields other
 * architectures use (`Model` on a Raspberry Pi, `Hardware`, `cpu model`, `cpu`).
 */
export function cpuModelFromCpuinfo(cpuinfo: string | undefined): string | undefined {
  if (!cpuinfo) return undefined;
  const fields = new Map<string, string>();
  for (const line of cpuinfo.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    if (!fields.has(key)) fields.set(key, line.slice(colon + 1).trim());
  }
  for (const key of ["model name", "Model", "Hardware", "cpu model", "cpu"]) {
    const value = cleanCpuModel(fields.get(key));
    if (value) return value;
  }
  return undefined;
}

function cleanCpuModel(model: string | undefined): string | undefined {
  const clean = model?.replace(/\s+/g, " ").trim();
  return clean || undefined;
}

/** The variables the terminal is read from, most specific first (TERM last). */
const TERMINAL_VARS = [
  "TERM_PROGRAM",
  "WT_SESSION",
  "KITTY_WINDOW_ID",
  "ALACRITTY_WINDOW_ID",
  "KONSOLE_VERSION",
  "TERMINAL_EMULATOR",
  "VTE_VERSION",
  "TERM",
] as const;

/**
 * The terminal program and `TERM`, e.g. `iTerm.app (xterm-256color)`. Versions
 * are left out on purpose: an upgrade should not change the prompt.
 */
export function terminalOf(env: Env): string | undefined {
  const set = (name: string) => (env[name] ?? "").trim();
  const program =
    set("TERM_PROGRAM") ||
    (set("WT_SESSION") && "Windows Terminal") ||
    (set("KITTY_WINDOW_ID") && "kitty") ||
    (set("ALACRITTY_WINDOW_ID") && "Alacritty") ||
    (set("KONSOLE_VERSION") && "Konsole") ||
    (set("TERMINAL_EMULATOR") === "JetBrains-JediTerm" && "JetBrains terminal") ||
    (set("VTE_VERSION") && "VTE-based terminal") ||
    "";
  const term = set("TERM");
  if (program && term && term !== program) return `${program} (${term})`;
  return program || term || undefined;
}

/** The shape of an IANA zone name (`UTC`, `Europe/Berlin`, `Etc/GMT+5`). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The time zone: `TZ` when it looks like an IANA zone name (a leading `:`
 * allowed), else the machine's own. A path (`/etc/localtime`) or a POSIX rule
 * (`CET-1CEST,M3.5.0,M10.5.0/3`) is not a name a reader knows, so it gives way
 * to the machine's. The shape is checked rather than asked of Intl: the first
 * Intl formatter of a process costs more than the rest of this step.
 */
export function timeZoneOf(env: Env, machineZone: string | undefined): string | undefined {
  const tz = env.TZ?.trim().replace(/^:/, "");
  if (tz && ZONE_NAME.test(tz)) return tz;
  return machineZone?.trim() || undefined;
}
