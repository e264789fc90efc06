import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";

/**
 * Where one of sysprompt's cache files lives. `parents`: whether the folders
 * above the file may be created; false for a file in the agent dir, which is
 * never created (only its `cache/` folder is).
 */
export interface CacheLocation {
  path: string;
  parents: boolean;
}

/**
 * The cache file `name` (`env`, `tree`): `<agentDir>/cache/sysprompt-<name>.json`
 * when the user named an agent dir (`agentDir` here is that explicit one, or
 * undefined), else `$XDG_CACHE_HOME/sysprompt/<name>.json` when that is an
 * absolute path (the XDG spec ignores a relative one), else
 * `~/.cache/sysprompt/<name>.json`. A render on a machine without pi creates no `~/.pi`.
 */
export function cacheLocation(
  name: string,
  options: {
    agentDir?: string | undefined;
    env: Readonly<Record<string, string | undefined>>;
    home: string;
  },
): CacheLocation {
  if (options.agentDir !== undefined) {
    return { path: join(options.agentDir, "cache", `sysprompt-${name}.json`), parents: false };
  }
  const xdg = options.env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(options.home, ".cache");
  return { path: join(base, "sysprompt", `${name}.json`), parents: true };
}

/**
 * Writes `text` to the cache file at `location` atomically: a temporary file
 * (created exclusively, mode 0600) renamed over the old one, so a reader never
 * sees half a file and two writers never mix. The cache folder is created
 * (0700), and with `parents` the folders above it; a missing agent dir stays
 * missing. Throws what failed, the temporary file removed.
 */
export function writeCacheFile(location: CacheLocation, text: string): void {
  const { path } = location;
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    try {
      mkdirSync(dirname(path), { recursive: location.parents, mode: 0o700 });
    } catch (error) {
      // There already: a file in its place fails at the write, with its own message.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    writeFileSync(temp, text, { flag: "wx", mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
