import type { Dirent } from "node:fs";
import { join } from "node:path";
import type { EntryKind } from "../_fs.js";
import { listProjectFolder, type Reach } from "../repo-files/index.js";
import type { Diagnostic } from "../types.js";
import { CUSTOM_FILES, LAYER_FOLDERS } from "./layer-files.js";

/** One of the folders a layer folder is read for. */
export type LayerFolder = (typeof LAYER_FOLDERS)[number];

/** Which names a listing is checked against. */
export interface NearMissOptions {
  /** SYSTEM.md, SYSTEM_TEMPLATE.md and APPEND_SYSTEM.md are read there too. */
  customFiles: boolean;
  /** Only these folders (`list` reads prompts and skills alone). Default: all four. */
  folders?: readonly LayerFolder[];
}

/**
 * The singular of each folder that is read, in lower case, with what the real
 * folder holds. Other unknown names are left alone: pi extensions keep their
 * own folders and files (`extensions/`, `agents/`, `settings.json`) here.
 */
const MISNAMED_FOLDERS = new Map<string, { folder: string; holds: string }>([
  ["section", { folder: "sections", holds: "section files live" }],
  ["partial", { folder: "partials", holds: "partials live" }],
  ["prompt", { folder: "prompts", holds: "slash-command templates live" }],
  ["skill", { folder: "skills", holds: "skills live" }],
]);

/** One entry of a layer folder's listing. */
export interface LayerEntry {
  name: string;
  /** From the listing itself (no stat); a link counts as what it would be read as. */
  type: EntryKind;
}

/**
 * `info` diagnostics for entries of a layer folder that look meant to be read
 * but are not: a misnamed folder (`section/`), a name that differs only in
 * case from one that is read (`system.md`), and SYSTEM_TEMPLATE.md beside the
 * SYSTEM.md that wins over it. Works on the listing alone, so nothing is
 * opened, and a mis-cased name is found on case-insensitive file systems too,
 * where opening `SYSTEM.md` would succeed.
 */
export function nearMisses(
  dir: string,
  entries: readonly LayerEntry[],
  options: NearMissOptions,
): Diagnostic[] {
  const folders: readonly string[] = options.folders ?? LAYER_FOLDERS;
  const readNames: readonly string[] = options.customFiles
    ? [...folders, ...CUSTOM_FILES]
    : folders;
  // A name that is read only when it is of the right kind: a SYSTEM.md that is a
  // FIFO or a folder is skipped (with its own diagnostic), so it is not "used".
  const present = new Set(
    entries
      .filter((e) => e.type === "link" || e.type === (e.name.endsWith(".md") ? "file" : "dir"))
      .map((e) => e.name),
  );
  const diagnostics: Diagnostic[] = [];
  const note = (name: string, code: string, message: string) =>
    diagnostics.push({ level: "info", code, message, path: join(dir, name) });
  for (const { name } of entries) {
    const lower = name.toLowerCase();
    const misnamed = MISNAMED_FOLDERS.get(lower);
    if (misnamed && folders.includes(misnamed.folder)) {
      note(name, "ignored-file", `ignored: ${misnamed.holds} in ${misnamed.folder}/`);
      continue;
    }
    const meant = readNames.find((read) => read !== name && read.toLowerCase() === lower);
    if (meant && present.has(meant)) {
      note(name, "ignored-file", `ignored: names are case-sensitive; ${meant} beside it is used`);
    } else if (meant) {
      note(
        name,
        "file-name-case",
        `read as ${meant} only where file names ignore case (macOS, Windows) and ignored elsewhere; rename it to ${meant}`,
      );
    }
    // The builtin folder's name for the general rules: a layer's is general-rules.md.
    if (options.customFiles && name === "rules.md") {
      note(
        name,
        "ignored-file",
        'ignored: a layer\'s general rules (one "- rule" a line) go in general-rules.md, beside it',
      );
    }
    if (options.customFiles && name === "SYSTEM_TEMPLATE.md" && present.has("SYSTEM.md")) {
      note(
        name,
        "ignored-file",
        "ignored: both SYSTEM.md and SYSTEM_TEMPLATE.md exist; SYSTEM.md is used",
      );
    }
  }
  return diagnostics;
}

/** Entries of a layer folder listed for hints at most: a layer holds a few dozen. */
export const MAX_NEAR_MISS_ENTRIES = 1000;

/**
 * {@link nearMisses} for a layer folder on disk: one listing, sorted so the
 * diagnostics come in a stable order. A folder that cannot be listed gives no
 * hints: a missing layer is normal, and any other failure is already reported
 * by the listing of its `sections/` folder. Once `signal` fires, the listing
 * stops and the promise rejects with its reason. With `reach` (a project's
 * layer), a folder the door would not read in (`.pi` linked to `~/private`) is
 * its one refusal, not listed: no name of yours there becomes a hint (rev82e F2).
 */
export async function nearMissesInFolder(
  dir: string,
  options: NearMissOptions,
  signal?: AbortSignal,
  reach?: Reach,
): Promise<Diagnostic[]> {
  const listing = await listProjectFolder(dir, reach, {
    maxEntries: MAX_NEAR_MISS_ENTRIES,
    signal,
  });
  if ("refused" in listing) return [listing.refused];
  // Unlistable, or too large to be a layer anyone wrote by hand: no hints.
  if ("error" in listing || listing.capped) return [];
  const entries = listing.entries.map((d): LayerEntry => ({ name: d.name, type: entryType(d) }));
  return nearMisses(dir, entries, options);
}

function entryType(entry: Dirent): LayerEntry["type"] {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "dir";
  return entry.isSymbolicLink() ? "link" : "other";
}
