import { dirname, join } from "node:path";
import { pushAll } from "../_arrays.js";
import { checkpoint } from "../_pace.js";
import { homeFolder } from "../_paths.js";
import { nearMatches } from "../_suggest.js";
import { position, YAML_TEXT_CAPS } from "../_yaml.js";
import {
  type FolderJudge,
  findProjectRoot,
  folderRefusedAt,
  listProjectFolder,
  NO_DEADLINE,
  type OwnFiles,
  ownFilesOf,
  projectReach,
  type Reach,
  type RepoCapped,
  readRepoCapped,
} from "../repo-files/index.js";
import { type Diagnostic, type Layer, SyspromptError } from "../types.js";
import { PRESET_NAME, type PresetFields, parsePreset } from "./parse.js";
import type { AgentPreset } from "./types.js";

/**
 * The builtin presets' parses, by path and exact text: every render naming an agent
 * parsed its builtin YAML file again. A few files of a few KB (`builtinDir` may name
 * another folder: the most recent {@link BUILTIN_PRESETS_KEPT} are kept); an edited
 * file misses and is parsed, so an entry never changes a result.
 */
const builtinParses = new Map<string, ReturnType<typeof parsePreset>>();
const BUILTIN_PRESETS_KEPT = 32;

/** {@link parsePreset} of a builtin preset, parsed once: a copy each call, which the caller may change. */
function builtinPreset(text: string, path: string): ReturnType<typeof parsePreset> {
  const key = `${path}\0${text}`;
  let parsed = builtinParses.get(key);
  if (parsed === undefined) {
    parsed = parsePreset(text, path);
    if (builtinParses.size >= BUILTIN_PRESETS_KEPT)
      builtinParses.delete(builtinParses.keys().next().value ?? "");
    builtinParses.set(key, parsed);
  }
  return structuredClone(parsed);
}

/** The preset a render uses when the caller names none. */
export const DEFAULT_AGENT = "pi";

/** A preset file is a few KB; past this it is refused, not parsed ({@link YAML_TEXT_CAPS}). */
export const MAX_PRESET_BYTES = YAML_TEXT_CAPS.preset;

/** The folders presets are read from, lowest layer first (the project's only when trusted). */
export interface PresetFolders {
  builtinDir: string;
  agentDir: string;
  projectDir: string;
  trusted: boolean;
  /** The project's folder, whose project its presets stay in. Default: the folder holding `projectDir`. */
  cwd?: string;
  /** Default: `os.homedir()`. */
  home?: string;
  /** The project root when the caller found it already (`normalizeOptions`, for a host's skills). */
  projectRoot?: string;
  /**
   * Stops the search for the project root (the render's deadline): a preset
   * not confined in time is confined to the working folder, which only takes away.
   */
  signal?: AbortSignal;
}

/** `agents/` of each layer that is read, lowest first. */
export function presetDirs(folders: PresetFolders): { layer: Layer; dir: string }[] {
  return [
    { layer: "builtin" as const, dir: join(folders.builtinDir, "agents") },
    { layer: "user" as const, dir: join(folders.agentDir, "agents") },
    ...(folders.trusted
      ? [{ layer: "project" as const, dir: join(folders.projectDir, "agents") }]
      : []),
  ];
}

/**
 * Entries of one layer's `agents/` folder listed at most: a layer holds a
 * few presets, and each listed one is loaded by `check` and named in an
 * unknown agent's error.
 */
export const MAX_PRESET_FOLDER_ENTRIES = 1000;

/** The preset names every read layer offers, sorted, each once. Unreadable folders offer none. */
export async function presetNames(folders: PresetFolders): Promise<string[]> {
  return (await listPresets(folders)).names;
}

/** {@link presetNames}, and the folders past {@link MAX_PRESET_FOLDER_ENTRIES}, which offer none. */
async function listPresets(
  folders: PresetFolders,
): Promise<{ names: string[]; tooLarge: string[]; refused: Diagnostic[] }> {
  const tooLarge: string[] = [];
  const refused: Diagnostic[] = [];
  const lists = await Promise.all(
    presetDirs(folders).map(async ({ layer, dir }) => {
      // The project's folder is asked of the door first: one linked out (`.pi/agents` to
      // `~/.ssh`) is one warning naming it, and none of its names is a preset (rev82e F2).
      // Checked and listed through one held folder: a link swapped in after the check is never
      // listed (rev88a F2).
      const judge = layer === "project" ? projectFolderJudge(folders) : undefined;
      const listing = await listProjectFolder(dir, judge, {
        maxEntries: MAX_PRESET_FOLDER_ENTRIES,
      });
      if ("refused" in listing) {
        refused.push(listing.refused);
        return [];
      }
      // Missing or unreadable: that layer offers no preset; loading one says why.
      if ("error" in listing) return [];
      if (listing.capped) {
        tooLarge.push(dir);
        return [];
      }
      return listing.entries
        .map((e) => e.name)
        .filter((n) => n.endsWith(".yaml") && PRESET_NAME.test(n.slice(0, -".yaml".length)));
    }),
  );
  const names = [...new Set(lists.flat().map((n) => n.slice(0, -".yaml".length)))].sort();
  return { names, tooLarge, refused };
}

/**
 * The preset `name`: the builtin file, then the user's and the project's
 * (when trusted), each replacing the keys it sets. A file that is broken is
 * a located diagnostic and sets nothing (the lower layers' keys stay), so a
 * bad override never breaks the render.
 *
 * @throws SyspromptError (`bad-option`) when no layer has the preset (unless
 * `required` is false: then an empty preset): an unknown `agent` is the
 * caller's mistake, with the near names in the message. `skipBuiltin`: the
 * builtin file is not read (the default `pi`, which sets nothing there, so a
 * render without an agent loads no YAML parser for it).
 */
export async function loadPreset(
  name: string,
  folders: PresetFolders,
  options: { required?: boolean; skipBuiltin?: boolean } = {},
): Promise<{ preset: AgentPreset; diagnostics: Diagnostic[] }> {
  const required = options.required !== false;
  const dirs = presetDirs(folders).filter((d) => !(options.skipBuiltin && d.layer === "builtin"));
  if (!PRESET_NAME.test(name)) throw await unknownPreset(name, folders);
  const diagnostics: Diagnostic[] = [];
  // Your preset linked into a checkout is read through that checkout's door (review rev98a F1),
  // placed with no deadline: a preset is options, read before gathering, and `--deadline 0` must
  // not refuse it (the walk's own budget bounds it; fx100b's fix took the render's signal).
  let own: Promise<OwnFiles> | undefined;
  const yours = () => {
    own ??= ownFilesOf(folders.agentDir, {
      home: folders.home ?? homeFolder(),
      trusted: folders.trusted,
      cwd: folders.cwd,
    });
    return own;
  };
  const reads = await Promise.all(
    dirs.map(async ({ layer, dir }) => {
      const path = join(dir, `${name}.yaml`);
      return {
        layer,
        path,
        read:
          layer === "project"
            ? await readProjectPreset(path, folders)
            : await readRepoCapped(path, {
                maxBytes: MAX_PRESET_BYTES,
                // The builtin presets are the package's own files.
                own: layer === "user" ? await yours() : undefined,
              }),
      };
    }),
  );
  const merged: PresetFields = {};
  const sources: AgentPreset["sources"] = [];
  let ruleSourcesFromProject = false;
  let agentSendsFromProject: string | undefined;
  for (const { layer, path, read } of reads) {
    if (!read.ok) {
      if (read.reason !== "missing") {
        pushAll(diagnostics, read.diagnostics);
        sources.push({ layer, path });
      }
      continue;
    }
    sources.push({ layer, path });
    if (read.omitted > 0) {
      // Located at the line the cap falls on, so the file's author sees where it grew past it.
      diagnostics.push({
        level: "error",
        code: "preset-invalid",
        message: `larger than ${MAX_PRESET_BYTES} bytes (a preset is a few KB; the cap falls on this line): not a preset; ignored`,
        path,
        ...position(read.text, read.text.length),
      });
      continue;
    }
    const parsed =
      layer === "builtin" ? builtinPreset(read.text, path) : parsePreset(read.text, path);
    pushAll(diagnostics, parsed.diagnostics);
    if (layer === "project" && parsed.fields.export !== undefined) {
      // The setting line is printed for the user to paste into a shell or an
      // agent's config: a repository choosing it could hand them a command.
      delete parsed.fields.export;
      diagnostics.push({
        level: "warning",
        code: "preset-project-export",
        message:
          "export: a project's preset cannot set the export (its setting is a line you are told to run or add to a config); ignored. Set it in the agent dir's agents/<name>.yaml",
        path,
      });
    }
    if (parsed.fields.ruleSources !== undefined) {
      ruleSourcesFromProject = layer === "project";
      if (ruleSourcesFromProject && parsed.fields.ruleSources.includes("sysprompt")) {
        // Your agent dir's rules: a repository saying the agent loads them itself drops them.
        parsed.fields.ruleSources = parsed.fields.ruleSources.filter((s) => s !== "sysprompt");
        diagnostics.push(projectRuleSourcesWarning(path));
      }
    }
    if (layer === "project" && parsed.fields.agentSends !== undefined) {
      // A section that shows your own texts is not something an agent sends itself: a
      // repository naming it would take your AGENTS.md, rules, skills or appended text out.
      const yours = parsed.fields.agentSends.filter((s) => USER_TEXT_SECTIONS.includes(s));
      if (yours.length > 0) {
        parsed.fields.agentSends = parsed.fields.agentSends.filter(
          (s) => !USER_TEXT_SECTIONS.includes(s),
        );
        diagnostics.push(projectAgentSendsWarning(path, yours));
      }
    }
    if (parsed.fields.agentSends !== undefined)
      agentSendsFromProject = layer === "project" ? path : undefined;
    Object.assign(merged, parsed.fields);
  }
  // The default preset may be absent (a builtinDir of the caller's own): the prompt as it is.
  if (sources.length === 0 && required) throw await unknownPreset(name, folders);
  return {
    preset: {
      name,
      description: merged.description ?? null,
      agentName: merged.agentName ?? null,
      tools: merged.tools && Object.keys(merged.tools).length > 0 ? merged.tools : null,
      contextFiles: merged.contextFiles ?? [],
      imports: merged.imports ?? false,
      ruleSources: merged.ruleSources ?? [],
      ruleSourcesFromProject,
      nestedContextFiles: merged.nestedContextFiles ?? [],
      toolSets: merged.toolSets ?? [],
      agentSends: merged.agentSends ?? [],
      ...(agentSendsFromProject !== undefined ? { agentSendsFromProject } : {}),
      verifiedWith: merged.verifiedWith ?? null,
      export: merged.export ?? null,
      sources,
    },
    diagnostics,
  };
}

/**
 * {@link loadPreset} for the agent a render was given. `from` is the config
 * file that named it (the caller did not): there an unknown name is that
 * file's problem, a located error, and the default preset is used, so a
 * repository's `sysprompt.yaml` cannot stop the render. The caller's own
 * unknown name still throws.
 */
export async function loadChosenPreset(
  agent: string | undefined,
  folders: PresetFolders,
  from?: { path: string; line?: number },
): Promise<{
  preset: AgentPreset;
  diagnostics: Diagnostic[];
  ignored?: { path: string; line?: number };
}> {
  const chosen = { required: agent !== undefined, skipBuiltin: agent === undefined };
  try {
    return await loadPreset(agent ?? DEFAULT_AGENT, folders, chosen);
  } catch (error) {
    if (from === undefined || !(error instanceof SyspromptError) || error.code !== "bad-option") {
      throw error;
    }
    const fallback = await loadPreset(DEFAULT_AGENT, folders, {
      required: false,
      skipBuiltin: true,
    });
    const problem: Diagnostic = {
      level: "error",
      code: "config-bad-value",
      message: `${error.message}; the key is ignored`,
      path: from.path,
      ...(from.line !== undefined ? { line: from.line } : {}),
    };
    return {
      preset: fallback.preset,
      diagnostics: [problem, ...fallback.diagnostics],
      ignored: from,
    };
  }
}

/**
 * The project's preset, which stays in the project whatever its links say. In
 * the working folder first, where no search is needed: its project holds it.
 * Only a preset that leads out of it asks for the project root (the caller's,
 * else searched within `signal`): from a cwd 1,900 folders deep that search
 * cost 20,000 look-ups of 4 KB paths, 13 s on a loaded machine, before the
 * deadline started (rev60b F1). Not found in time, the refusal stands.
 */
async function readProjectPreset(path: string, folders: PresetFolders): Promise<RepoCapped> {
  const at = presetsAt(folders);
  const read = (reach: Reach) => readRepoCapped(path, { reach, maxBytes: MAX_PRESET_BYTES });
  const near = await read(await projectReach({ ...at, root: at.start }));
  if (near.ok || near.reason !== "refused" || near.refusal.reason !== "outside") return near;
  const root = await presetsRoot(folders);
  if (root === undefined || root === at.start) return near;
  return read(await projectReach({ ...at, root }));
}

/**
 * The door's word on the project's `agents/` folder (its real path `real`,
 * that of the folder held for its listing), in the reaches its presets are
 * read in ({@link readProjectPreset}).
 */
function projectFolderJudge(folders: PresetFolders): FolderJudge {
  return async (dir, real) => {
    const at = presetsAt(folders);
    const near = await folderRefusedAt(dir, real, await projectReach({ ...at, root: at.start }));
    if (near?.code !== "file-outside-project") return near;
    const root = await presetsRoot(folders);
    if (root === undefined || root === at.start) return near;
    return folderRefusedAt(dir, real, await projectReach({ ...at, root }));
  };
}

/** Where the project's presets are read from: its folder, trusted. */
function presetsAt(folders: PresetFolders) {
  return {
    start: folders.cwd ?? dirname(folders.projectDir),
    home: folders.home ?? homeFolder(),
    trusted: true,
    signal: folders.signal ?? NO_DEADLINE,
  };
}

/** The project root, the caller's or searched within its signal (undefined: not found in time). */
async function presetsRoot(folders: PresetFolders): Promise<string | undefined> {
  return (
    folders.projectRoot ??
    (await findProjectRoot(presetsAt(folders).start, undefined, folders.signal).catch(
      () => undefined,
    ))
  );
}

async function unknownPreset(name: string, folders: PresetFolders): Promise<SyspromptError> {
  const names = await presetNames(folders);
  const near = nearMatches(name, names);
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  return new SyspromptError(
    "bad-option",
    `agent: no preset named ${shown}${near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : "."} The presets are: ${names.join(", ")} (a new one is a file agents/<name>.yaml in the agent dir or the project's .pi/)`,
  );
}

/**
 * Every preset file of every read layer, parsed for its problems: what
 * `sysprompt check` reports (a render reports only the preset it uses).
 * `signal` stops it between two presets (the promise rejects with its reason).
 */
export async function checkPresets(
  folders: PresetFolders,
  signal?: AbortSignal,
): Promise<Diagnostic[]> {
  const { names, tooLarge, refused } = await listPresets(folders);
  // One at a time, the signal heard between two: each parse is synchronous.
  const loads: Awaited<ReturnType<typeof loadPreset>>[] = [];
  for (const name of names) {
    await checkpoint(signal);
    loads.push(await loadPreset(name, folders, { required: false }));
  }
  return [
    ...refused,
    ...tooLarge.map(
      (dir): Diagnostic => ({
        level: "warning",
        code: "preset-folder-too-large",
        message: `more than ${MAX_PRESET_FOLDER_ENTRIES} entries in one agents folder: none of its presets listed or checked (one named with --agent or agent: is still read)`,
        path: dir,
      }),
    ),
    ...loads.flatMap((l) => l.diagnostics),
  ];
}

/** A project's preset named `sysprompt` among the rule sources the agent loads itself. */
/**
 * The sections that show the user's own texts (the agent dir's AGENTS.md,
 * general rules, rule files, skills, APPEND_SYSTEM.md and appended text): a
 * project's preset cannot name them in `agentSends`; the user's preset can.
 */
const USER_TEXT_SECTIONS: readonly string[] = [
  "project_context",
  "project_rules",
  "skills",
  "addendum",
  "rules",
];

/**
 * The sections a preset's `agentSends` leaves out, less those a project's preset
 * (`from`, its file) may not name: a section a layer of yours defines or
 * changes (`yours`: each name with your file) is your text, not something the
 * agent sends itself (rev52b F13: a trusted project's `agentSends: [usec]`
 * took your own section out with no word). Those names are ignored with a
 * `preset-project-agent-sends` warning naming your file; your own preset may
 * name any section.
 */
export function agentSendsKept(
  sends: readonly string[],
  from: string | undefined,
  yours: ReadonlyMap<string, string>,
): { sent: string[]; diagnostics: Diagnostic[] } {
  if (from === undefined) return { sent: [...sends], diagnostics: [] };
  const mine = sends.filter((s) => yours.has(s));
  if (mine.length === 0) return { sent: [...sends], diagnostics: [] };
  const named = mine.map((s) => `${s} (${yours.get(s)})`).join(", ");
  return {
    sent: sends.filter((s) => !yours.has(s)),
    diagnostics: [
      {
        level: "warning",
        code: "preset-project-agent-sends",
        message: `agentSends: a project's preset cannot leave out a section of yours (${named}); ignored for ${mine.length === 1 ? "it" : "them"}. Set it in the agent dir's agents/<name>.yaml`,
        path: from,
      },
    ],
  };
}

function projectAgentSendsWarning(path: string, sections: readonly string[]): Diagnostic {
  return {
    level: "warning",
    code: "preset-project-agent-sends",
    message: `agentSends: a project's preset cannot leave out a section that shows your own texts (${sections.join(", ")}); ignored for ${sections.length === 1 ? "it" : "them"}. Set it in the agent dir's agents/<name>.yaml`,
    path,
  };
}

function projectRuleSourcesWarning(path: string): Diagnostic {
  return {
    level: "warning",
    code: "preset-project-rule-sources",
    message:
      "loadsItself.ruleSources: a project's preset leaves out only the project's own rule formats, never sysprompt's rules or your user-level folders; sysprompt ignored. Set it in the agent dir's agents/<name>.yaml",
    path,
  };
}
