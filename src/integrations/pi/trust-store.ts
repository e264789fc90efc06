/**
 * The trust decisions pi keeps in its agent dir, read the way pi 1.6.0 reads
 * them (`dist/core/trust-manager.js`, `dist/core/settings-manager.js`):
 * `trust.json` maps canonical folder paths to `true` / `false` (`null` clears
 * one), and the nearest folder with a decision, the cwd or a parent, decides;
 * `settings.json`'s `defaultProjectTrust` (`ask`, `always`, `never`) applies
 * when no folder has one. Both are the user's own files. Read only, never
 * written: `/trust` in pi writes them, under pi's lock.
 */
import { dirname, join, resolve } from "node:path";
import { readTextFile, realpathOrSelf } from "../../_fs.js";
import type { Diagnostic } from "../../types.js";

/** A saved decision and the folder it was saved for. */
export interface SavedTrust {
  trusted: boolean;
  folder: string;
}

/** The decision saved for `cwd` or its nearest parent in `<agentDir>/trust.json`, if any. */
export async function savedTrust(
  agentDir: string,
  cwd: string,
): Promise<{ saved: SavedTrust | undefined; diagnostics: Diagnostic[] }> {
  const file = join(agentDir, "trust.json");
  const read = await readJsonObject(file);
  if (read.value === undefined) return { saved: undefined, diagnostics: read.diagnostics };
  const entries = new Map<string, boolean>();
  for (const [key, value] of Object.entries(read.value)) {
    if (value === true || value === false) entries.set(resolve(key), value);
  }
  let folder = await realpathOrSelf(resolve(cwd));
  while (true) {
    const trusted = entries.get(folder);
    if (trusted !== undefined) return { saved: { trusted, folder }, diagnostics: [] };
    const parent = dirname(folder);
    if (parent === folder) return { saved: undefined, diagnostics: [] };
    folder = parent;
  }
}

/** `defaultProjectTrust` from `<agentDir>/settings.json`: `"ask"` unless it says `always` or `never`. */
export async function defaultProjectTrust(
  agentDir: string,
): Promise<{ value: "ask" | "always" | "never"; diagnostics: Diagnostic[] }> {
  const read = await readJsonObject(join(agentDir, "settings.json"));
  const value = read.value?.defaultProjectTrust;
  return {
    value: value === "always" || value === "never" ? value : "ask",
    diagnostics: read.diagnostics,
  };
}

/** A JSON object file; absent is silent, anything unusable is a warning and no value. */
async function readJsonObject(
  path: string,
): Promise<{ value: Record<string, unknown> | undefined; diagnostics: Diagnostic[] }> {
  const read = await readTextFile(path);
  if (!read.ok) {
    return { value: undefined, diagnostics: read.reason === "missing" ? [] : read.diagnostics };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch (error) {
    return { value: undefined, diagnostics: [unusable(path, (error as Error).message)] };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { value: undefined, diagnostics: [unusable(path, "not a JSON object")] };
  }
  return { value: parsed as Record<string, unknown>, diagnostics: [] };
}

function unusable(path: string, why: string): Diagnostic {
  return {
    level: "warning",
    code: "pi-trust-store",
    message: `pi's file cannot be read (${why}); it is taken as holding no trust decision`,
    path,
  };
}
