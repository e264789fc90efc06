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
 * the names of the agent's exports together, newest first: an export for one
 * project adds names to the hook in another, never takes one away.
 *
 * Your names and a trusted project's are kept in two lists, each with its
 * own caps ({@link MAX_EXPORT_NAMES}, {@link MAX_LIST_BYTES}): one export in
 * a clone whose templates name 4,200 elements filled the one list and pushed
 * out every name your own flags and files gave (review rev49a F6). A
 * project's names now push out only older projects' names.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { type CacheLocation, cacheLocation, writeCacheFile } from "../_cache-location.js";
import { envAgentDirPath } from "../locate/layers.js";
import { readSmallFile } from "./state.js";

/** Most names kept per agent in each list, yours and the projects'; the oldest go first. */
export const MAX_EXPORT_NAMES = 4096;
/** A name longer than this is no element name of ours: left out. */
const MAX_NAME_LENGTH = 256;
/**
 * Most bytes of each list as written (JSON): 4,096 names of 256 units each
 * can take 3 MiB, past which the whole file would be read as none. The
 * oldest names go first until the list fits.
 */
const MAX_LIST_BYTES = 1024 * 1024;
/** A file past this is not ours: read as none. */
const MAX_FILE_BYTES = 2 * MAX_LIST_BYTES + 1024;
const VERSION = 2;

type Where = { env: Readonly<Record<string, string | undefined>>; home: string };

/** What the agent's exports kept: names your own layers and texts gave, and those of trusted projects. */
export interface ExportNames {
  own: string[];
  project: string[];
}

/** The agent's names file, where its hook's session files are. */
function namesLocation(agent: string, where: Where): CacheLocation {
  return cacheLocation(`export-names-${agent}`, {
    agentDir: envAgentDirPath(where.env, where.home),
    ...where,
  });
}

/** A list of the file: its names, newest first, within the caps. */
function listOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return fitted(
    value.filter(
      (n): n is string => typeof n === "string" && n !== "" && n.length <= MAX_NAME_LENGTH,
    ),
  );
}

/** The first names of `names` (unique) that fit {@link MAX_EXPORT_NAMES} and {@link MAX_LIST_BYTES}. */
function fitted(names: Iterable<string>): string[] {
  const kept: string[] = [];
  const seen = new Set<string>();
  let bytes = 2;
  for (const name of names) {
    if (seen.has(name)) continue;
    bytes += Buffer.byteLength(JSON.stringify(name)) + 1;
    if (kept.length >= MAX_EXPORT_NAMES || bytes > MAX_LIST_BYTES) break;
    seen.add(name);
    kept.push(name);
  }
  return kept;
}

/**
 * The names the agent's exports kept, newest first in each list; none for a
 * missing, foreign or torn file. A file of the first version (one list,
 * whose names were not told apart) is read as projects' names.
 */
export function readExportNames(agent: string, where: Where): ExportNames {
  const none = { own: [], project: [] };
  const read = readSmallFile(namesLocation(agent, where).path, MAX_FILE_BYTES);
  if (!("text" in read)) return none;
  try {
    const value = JSON.parse(read.text) as {
      v?: unknown;
      names?: unknown;
      own?: unknown;
      project?: unknown;
    };
    if (value.v === 1) return { own: [], project: listOf(value.names) };
    if (value.v !== VERSION) return none;
    return { own: listOf(value.own), project: listOf(value.project) };
  } catch {
    return none;
  }
}

/**
 * Adds an export's element names to the agent's file: `own` (the names your
 * own layers and texts gave) before your names kept, the rest of `all` (a
 * trusted project's) before the projects' names kept, each list within its
 * caps. `create` false (an export `--out` elsewhere, which leaves the cache
 * folder alone): kept only when the file's folder is there already. Throws
 * what the write threw.
 */
export function recordExportNames(
  agent: string,
  names: { own: Iterable<string>; all: Iterable<string> },
  where: Where & { create: boolean },
): "written" | "unchanged" | "not-kept" {
  const location = namesLocation(agent, where);
  if (!where.create && !existsSync(dirname(location.path))) return "not-kept";
  const kept = readExportNames(agent, where);
  const usable = (n: string) => n !== "" && n.length <= MAX_NAME_LENGTH;
  const own = fitted([...[...names.own].filter(usable), ...kept.own]);
  const yours = new Set(own);
  const project = fitted(
    [...[...names.all].filter(usable), ...kept.project].filter((n) => !yours.has(n)),
  );
  if (sameNames(own, kept.own) && sameNames(project, kept.project)) return "unchanged";
  writeCacheFile(location, JSON.stringify({ v: VERSION, own, project }));
  return "written";
}

/** Whether `a` and `b` hold the same names (in any order). */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(b);
  return a.every((n) => set.has(n));
}
