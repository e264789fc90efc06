/**
 * The element names `sysprompt export --agent NAME` escaped the repository's
 * texts against, kept for the agent's hook: a hook reads your layers and
 * config files as a render does, but not the flags an export was given
 * (`--append-system-prompt "<deploy_rules>…"`, `--system-prompt`, `--var`
 * for a `{{#xml vars.tag}}`), so a nested AGENTS.md given on touch closed
 * the exported prompt's `</deploy_rules>` raw (review rev47c F7). Each
 * export adds its names to one small file per agent in sysprompt's cache
 * folder (the hook's own place, {@link cacheLocation}); the hook adds them to
 * the names it reads. A name only makes more text literal, so the file holds
 * the names of the agent's exports together, newest first, up to
 * {@link MAX_EXPORT_NAMES}: an export for one project adds names to the hook
 * in another, never takes one away.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { type CacheLocation, cacheLocation, writeCacheFile } from "../_cache-location.js";
import { envAgentDir } from "../locate/layers.js";
import { readSmallFile } from "./state.js";

/** Most names kept per agent; the oldest go first. */
export const MAX_EXPORT_NAMES = 4096;
/** A name longer than this is no element name of ours: left out. */
const MAX_NAME_LENGTH = 256;
/** A file past this is not ours: read as none. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const VERSION = 1;

type Where = { env: Readonly<Record<string, string | undefined>>; home: string };

/** The agent's names file, where its hook's session files are. */
function namesLocation(agent: string, where: Where): CacheLocation {
  return cacheLocation(`export-names-${agent}`, { agentDir: envAgentDir(where.env), ...where });
}

/** The names the agent's exports kept, newest first; none for a missing, foreign or torn file. */
export function readExportNames(agent: string, where: Where): string[] {
  const read = readSmallFile(namesLocation(agent, where).path, MAX_FILE_BYTES);
  if (!("text" in read)) return [];
  try {
    const value = JSON.parse(read.text) as { v?: unknown; names?: unknown };
    if (value.v !== VERSION || !Array.isArray(value.names)) return [];
    return value.names
      .filter((n): n is string => typeof n === "string" && n.length <= MAX_NAME_LENGTH)
      .slice(0, MAX_EXPORT_NAMES);
  } catch {
    return [];
  }
}

/**
 * Adds an export's element names to the agent's file (before the ones kept,
 * which follow up to {@link MAX_EXPORT_NAMES}). `create` false (an export
 * `--out` elsewhere, which leaves the cache folder alone): kept only when the
 * file's folder is there already. Throws what the write threw.
 */
export function recordExportNames(
  agent: string,
  names: Iterable<string>,
  where: Where & { create: boolean },
): "written" | "unchanged" | "not-kept" {
  const location = namesLocation(agent, where);
  if (!where.create && !existsSync(dirname(location.path))) return "not-kept";
  const kept = readExportNames(agent, where);
  const had = new Set(kept);
  const fresh = [...names].filter((n) => n !== "" && n.length <= MAX_NAME_LENGTH);
  if (fresh.every((n) => had.has(n))) return "unchanged";
  const all = [...new Set([...fresh, ...kept])].slice(0, MAX_EXPORT_NAMES);
  writeCacheFile(location, JSON.stringify({ v: VERSION, names: all }));
  return "written";
}
