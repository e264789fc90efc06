import { join } from "node:path";
import { pushAll } from "../_arrays.js";
import { parseFrontmatter } from "../_frontmatter.js";
import { kindOfPath } from "../_fs.js";
import { checkpoint } from "../_pace.js";
import { entryKind, KIND_WORDS } from "../_safe-write.js";
import {
  folderRefused,
  NO_DEADLINE,
  type OwnFiles,
  ownFilesOf,
  projectReach,
  type Reach,
  readRepoText,
} from "../repo-files/index.js";
import { listMarkdown, loadSectionsFromDir, readLayerFiles } from "../sections/load.js";
import type { CustomPrompt } from "../sections/render.js";
import type { SectionFile } from "../sections/types.js";
import type { Diagnostic, Layer } from "../types.js";
import { parseRuleListFile } from "./general-rules.js";
import { GENERAL_RULES_FILE } from "./layer-files.js";
import { nearMissesInFolder } from "./near-misses.js";

/** Everything one layer folder contributes to the prompt. */
export interface LoadedLayer {
  layer: Layer;
  sections: SectionFile[];
  /** Partial sources by name, from `partials/*.md`. */
  partials: Record<string, string>;
  /** The folder {@link partials} were read from (`<layer>/partials`), for naming one in a diagnostic. */
  partialsDir?: string;
  /** The file line each partial's source starts at, for one with frontmatter (absent: line 1). */
  partialLines?: Record<string, number>;
  /** SYSTEM.md or SYSTEM_TEMPLATE.md of this layer (SYSTEM.md wins). */
  system: CustomPrompt | null;
  /** APPEND_SYSTEM.md of this layer, trimmed. */
  append: string | null;
  /** Where {@link append} was read. */
  appendPath?: string;
  /** The general rules of this layer's `general-rules.md`, which replace the layers' below. */
  generalRules: {
    rules: string[];
    path: string;
    /** The `# ejected-from:` record of a copy `eject` wrote: the builtin list's hash, and its line. */
    ejectedFrom?: { hash: string; line: number };
  } | null;
  diagnostics: Diagnostic[];
}

/** Files a host already read (`resolvedSystemPrompt`, `resolvedAppendPrompt`): no layer reads them. */
export type ResolvedFile = "SYSTEM.md" | "APPEND_SYSTEM.md";

/** The file of a user or project layer that replaces the builtin `rules.md`: the general rules. */
export { GENERAL_RULES_FILE } from "./layer-files.js";

export function emptyLayer(layer: Layer): LoadedLayer {
  return {
    layer,
    sections: [],
    partials: {},
    system: null,
    append: null,
    generalRules: null,
    diagnostics: [],
  };
}

/**
 * Reads a layer folder: `sections/*.md`, `partials/*.md` and, unless
 * `customFiles` is false, SYSTEM.md / SYSTEM_TEMPLATE.md / APPEND_SYSTEM.md,
 * less the files in `resolved` (a host such as pi read them already and passes
 * their text as options). Missing files are normal; broken ones are diagnostics.
 * With `confine` (the project's layer), every file is read through the door
 * within the project of `confine.start` (cwd): a link out of it, into the
 * home folder or anywhere else, is refused with a diagnostic. `signal` stops
 * the listings (the promise rejects with its reason): a render that gave up.
 */
export async function loadLayer(
  dir: string,
  layer: Layer,
  options: {
    customFiles: boolean;
    sections?: boolean;
    resolved?: readonly ResolvedFile[];
    confine?: LayerConfine;
    /**
     * Your layer (the agent dir): a file of it whose real path lies in a
     * checkout (`SYSTEM.md -> ~/kits/team/prompts.md`, `~/.pi -> ~/kits/team`)
     * is read through that checkout's door, with the render's trust, as your
     * `AGENTS.md` is (review rev98a F1); your other files read as yours only
     * within your home and agent dir, as every reader's (`yourPrivateRefusal`).
     */
    own?: { home: string; trusted: boolean; cwd?: string | undefined };
    signal?: AbortSignal | undefined;
  },
): Promise<LoadedLayer> {
  const notFolder = await notAFolder(dir, layer);
  if (notFolder) return { ...emptyLayer(layer), diagnostics: [notFolder] };
  const reach = options.confine
    ? await projectReach({
        ...options.confine,
        trusted: true,
        signal: options.signal ?? NO_DEADLINE,
      })
    : undefined;
  // The layer folder itself linked out of the project (`.pi` to `~/private`): one warning naming
  // it, and nothing in it listed or read (decided, review rev82e F2).
  const refused = await folderRefused(dir, reach);
  if (refused) return { ...emptyLayer(layer), diagnostics: [refused] };
  const { signal } = options;
  const own = !reach && options.own ? await ownFilesOf(dir, { ...options.own, signal }) : undefined;
  const reads = (name: ResolvedFile) => options.customFiles && !options.resolved?.includes(name);
  const readOptional = (path: string) => readOptionalIn(path, reach, own);
  const rulesPath = join(dir, GENERAL_RULES_FILE);
  const [sections, partials, system, template, append, rules, hints] = await Promise.all([
    options.sections === false
      ? { sections: [], diagnostics: [] }
      : loadSectionsFromDir(join(dir, "sections"), layer, reach, signal, own),
    loadPartials(join(dir, "partials"), reach, signal, own),
    reads("SYSTEM.md") ? readOptional(join(dir, "SYSTEM.md")) : undefined,
    options.customFiles ? readOptional(join(dir, "SYSTEM_TEMPLATE.md")) : undefined,
    reads("APPEND_SYSTEM.md") ? readOptional(join(dir, "APPEND_SYSTEM.md")) : undefined,
    options.customFiles ? readOptional(rulesPath) : undefined,
    // Hints about files that are not read (`section/`, `system.md`), said last.
    // Listed through the folder held and checked (rev88a F2): `.pi` swapped since is not listed.
    layer === "builtin" ? [] : nearMissesInFolder(dir, options, signal, reach),
  ]);
  const generalRules =
    rules?.text !== undefined ? parseRuleListFile(rules.text, rulesPath) : undefined;
  const diagnostics = [
    ...sections.diagnostics,
    ...partials.diagnostics,
    ...(system?.diagnostics ?? []),
    ...(template?.diagnostics ?? []),
    ...(append?.diagnostics ?? []),
    ...(rules?.diagnostics ?? []),
    ...(generalRules?.diagnostics ?? []),
  ];
  pushAll(diagnostics, hints);
  const systemPrompt: CustomPrompt | null =
    system?.text !== undefined
      ? { text: system.text, template: false, source: { layer, path: join(dir, "SYSTEM.md") } }
      : template?.text !== undefined
        ? {
            text: template.text,
            template: true,
            line: 1,
            source: { layer, path: join(dir, "SYSTEM_TEMPLATE.md") },
          }
        : null;
  return {
    layer,
    sections: sections.sections,
    partials: partials.partials,
    partialsDir: join(dir, "partials"),
    ...(partials.lines ? { partialLines: partials.lines } : {}),
    system: systemPrompt,
    append: append?.text !== undefined ? append.text.trim() : null,
    ...(append?.text !== undefined ? { appendPath: join(dir, "APPEND_SYSTEM.md") } : {}),
    generalRules: generalRules
      ? {
          rules: generalRules.rules,
          path: rulesPath,
          ...(generalRules.ejectedFrom ? { ejectedFrom: generalRules.ejectedFrom } : {}),
        }
      : null,
    diagnostics,
  };
}

/**
 * The one warning for a layer folder that is something else (`.pi` a FIFO, a
 * file, a socket, a device): each of its files and folders would otherwise be
 * a warning of its own (seven, each saying ENOTDIR). Undefined for a folder
 * (or a link to one) and for nothing there.
 */
export async function notAFolder(dir: string, layer: Layer): Promise<Diagnostic | undefined> {
  const kind = await kindOfPath(dir);
  if (kind === "dir" || kind === "missing") return undefined;
  const entry = await entryKind(dir).catch(() => "missing" as const);
  const what =
    entry === "missing" || entry === "dir" ? "not a folder" : `${KIND_WORDS[entry]}, not a folder`;
  return {
    level: "warning",
    code: "layer-not-folder",
    message: `${what}: nothing of the ${layer} layer is read (sysprompt.yaml, SYSTEM.md, APPEND_SYSTEM.md, sections/, partials/, general-rules.md)`,
    path: dir,
  };
}

/** Where a project's layer files may lead: the project holding `start`. */
export interface LayerConfine {
  /** The folder the layer belongs to (cwd). */
  start: string;
  home: string;
  ceiling?: string | undefined;
}

/** A file that may be absent: absence is silent, other failures are diagnostics. */
async function readOptionalIn(
  path: string,
  reach: Reach | undefined,
  own: OwnFiles | undefined,
): Promise<{ text?: string; diagnostics: Diagnostic[] }> {
  const read = await readRepoText(path, { reach, own });
  if (read.ok) return { text: read.text, diagnostics: read.diagnostics };
  return { diagnostics: read.reason === "missing" ? [] : read.diagnostics };
}

async function loadPartials(
  dir: string,
  reach: Reach | undefined,
  signal: AbortSignal | undefined,
  own: OwnFiles | undefined,
): Promise<{
  partials: Record<string, string>;
  lines?: Record<string, number>;
  diagnostics: Diagnostic[];
}> {
  const { names, diagnostics } = await listMarkdown(dir, signal, reach);
  const partials: Record<string, string> = {};
  let lines: Record<string, number> | undefined;
  const { texts: reads, cut } = await readLayerFiles(dir, names, reach, own);
  if (cut) diagnostics.push(cut);
  for (const [i, read] of reads.entries()) {
    const name = names[i]?.slice(0, -".md".length);
    pushAll(diagnostics, read.diagnostics);
    if (!read.ok || !name) continue;
    // A partial's frontmatter is parsed too: the signal is heard between two, as for sections.
    if (signal) await checkpoint(signal);
    const doc = parseFrontmatter(read.text, join(dir, `${name}.md`));
    pushAll(diagnostics, doc.diagnostics);
    partials[name] = doc.body;
    if (doc.bodyLine !== 1) {
      lines ??= {};
      lines[name] = doc.bodyLine;
    }
  }
  return { partials, ...(lines ? { lines } : {}), diagnostics };
}
