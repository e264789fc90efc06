import { basename, dirname, join } from "node:path";
import {
  CACHE_FOLDER,
  type CacheLocation,
  cacheFileReadable,
  cacheLocation,
  writeCacheFile,
} from "../../_cache-location.js";
import { readTextFile, realpathOrSelf } from "../../_fs.js";
import { homeFolder, isWithin } from "../../_paths.js";
import type { Diagnostic } from "../../types.js";
import { VERSION } from "../../version.js";
import { cleanGpuNames, type GpuAnswer } from "./_gpu.js";
import { projectFolders } from "./system-binary.js";

/**
 * Bumped when the probe commands or their parsing change, so an answer written
 * by older code is not trusted. The package version is part of the key too.
 * 2: probes run only system binaries, so an answer a project's `lspci` gave
 * under format 1 is dropped.
 */
const PROBE_FORMAT = 2;

/** The key a cached answer must match, field for field. */
export const GPU_CACHE_VERSION = `gpu-probe/${PROBE_FORMAT} sysprompt/${VERSION}`;

/** Where the environment cache lives (see {@link cacheLocation}). */
export type EnvCacheLocation = CacheLocation;

/**
 * The cache file: `<agentDir>/cache/sysprompt-env.json` when the user named an
 * agent dir (`agentDir` here is that explicit one, or undefined), else
 * `$XDG_CACHE_HOME/sysprompt/env.json` when that is an absolute path (the XDG
 * spec ignores a relative one), else `~/.cache/sysprompt/env.json`. A render
 * on a machine without pi creates no `~/.pi`.
 */
export function envCacheLocation(options: {
  agentDir?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}): EnvCacheLocation {
  return cacheLocation("env", options);
}

/**
 * Whether the cache file at `path` lies in a folder the project controls
 * (`folders`, the working folder and workspace roots, and the project roots
 * above them, as `projectFolders` finds them for `PATH`), by the path as named
 * or its folder's real path. `XDG_CACHE_HOME` set inside a checkout, as CI jobs
 * set it, makes `env.json` a file the repository can ship, its GPU names
 * forged: such a cache is neither read nor written. The home folder itself,
 * as the working folder, is not the project's here, nor are `~/.cache` and
 * `~/.cache/sysprompt`, yours, which a checkout below them shares with the
 * cache file only by where it lies (a pre-commit clone in `~/.cache/pre-commit`,
 * `explain --simulate`'s copies in `~/.cache/sysprompt/simulate`): every render
 * there ran the GPU probe again (rev60d F4). An `$XDG_CACHE_HOME` or agent dir
 * is judged as before: a CI job may set it inside the checkout.
 */
export async function cacheInProject(
  path: string,
  folders: readonly string[],
  home: string = homeFolder(),
  signal?: AbortSignal,
): Promise<boolean> {
  const real = join(await realpathOrSelf(dirname(path)), basename(path));
  const cache = join(home, ".cache");
  const yours = [home, cache, join(cache, CACHE_FOLDER)];
  const homes = new Set([...yours, ...(await Promise.all(yours.map(realpathOrSelf)))]);
  const owned = await projectFolders(folders, [path, real], home, signal);
  return owned.some((f) => !homes.has(f) && (isWithin(path, f) || isWithin(real, f)));
}

/**
 * Which machine, and which boot of it, an answer is about. A new boot is when
 * hardware changes (a GPU added, a driver updated), so the boot id (Linux) and
 * the kernel release are in the key; elsewhere host name and release.
 */
export interface MachineFingerprint {
  platform: string;
  arch: string;
  hostname: string;
  release: string;
  boot: string;
}

/** The cache file, as written. */
interface EnvCacheFile {
  version: string;
  machine: MachineFingerprint;
  gpu: GpuAnswer;
}

/** The file is a few hundred bytes; anything much larger is not ours. */
const MAX_CACHE_BYTES = 64 * 1024;

/**
 * The cached GPU answer for this machine and version, or undefined (no file,
 * another version or machine, unreadable, not ours). A miss only means the
 * probe runs again, so it is not a diagnostic.
 */
export async function readGpuCache(
  path: string,
  machine: MachineFingerprint,
): Promise<GpuAnswer | undefined> {
  // Its folder, or one on its way up to `/`, another user's to write in: not read (rev71d F6).
  if (!cacheFileReadable(path)) return undefined;
  const read = await readTextFile(path, MAX_CACHE_BYTES);
  if (!read.ok) return undefined;
  let file: Partial<EnvCacheFile>;
  try {
    file = JSON.parse(read.text) as Partial<EnvCacheFile>;
  } catch {
    // A torn or hand-edited file is a miss; the next write replaces it.
    return undefined;
  }
  if (file?.version !== GPU_CACHE_VERSION || !sameMachine(file.machine, machine)) return undefined;
  return validAnswer(file.gpu);
}

function sameMachine(a: unknown, b: MachineFingerprint): boolean {
  if (typeof a !== "object" || a === null) return false;
  const r = a as Record<string, unknown>;
  return (Object.keys(b) as (keyof MachineFingerprint)[]).every((k) => r[k] === b[k]);
}

function validAnswer(gpu: unknown): GpuAnswer | undefined {
  const g = gpu as { status?: unknown; names?: unknown } | null | undefined;
  if (g?.status === "none" || g?.status === "unknown") return { status: g.status };
  if (
    g?.status === "found" &&
    Array.isArray(g.names) &&
    g.names.length > 0 &&
    g.names.every((n) => typeof n === "string")
  ) {
    // Cleaned again: a file in the user's cache is still only a cache.
    const names = cleanGpuNames(g.names as string[]);
    return names.length > 0 ? { status: "found", names } : undefined;
  }
  return undefined;
}

/**
 * Writes the answer atomically (a temporary file renamed over the old one), so
 * a reader never sees half a file and two writers never mix. Failing to write
 * costs only a probe next time: an `info` diagnostic, never an exception.
 */
export async function writeGpuCache(
  location: EnvCacheLocation,
  machine: MachineFingerprint,
  gpu: GpuAnswer,
): Promise<Diagnostic[]> {
  const file: EnvCacheFile = { version: GPU_CACHE_VERSION, machine, gpu };
  try {
    writeCacheFile(location, `${JSON.stringify(file, null, 2)}\n`);
    return [];
  } catch (error) {
    return [
      {
        level: "info",
        code: "env-cache-unwritable",
        message: `cannot cache the GPU probe's answer (${error instanceof Error ? error.message : String(error)}); it runs again next time`,
        path: location.path,
      },
    ];
  }
}
