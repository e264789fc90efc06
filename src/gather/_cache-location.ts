import { isAbsolute, join } from "node:path";

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
