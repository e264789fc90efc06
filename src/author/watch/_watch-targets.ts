import { basename, dirname, join } from "node:path";
import { pushAll } from "../../_arrays.js";
import { kindOfPath } from "../../_fs.js";
import { isWithin, resolveUserPath } from "../../_paths.js";
import { CONTEXT_FILE_NAMES } from "../../gather/context-names.js";
import { MAX_TIMER_MS } from "../../gather/deadline.js";
import { RULE_ENTRY_NAMES } from "../../gather/rules/index.js";
import { normalizeOptions } from "../../options/normalize.js";
import type { NormalizedOptions, SystemPromptOptions } from "../../options.js";
import { planTemplateRoots } from "../../prompt-templates/index.js";
import type { PreparedPrompt } from "../../render-system-prompt.js";
import {
  findProjectRoot,
  folderRefused,
  NO_DEADLINE,
  projectReach,
  type Reach,
} from "../../repo-files/index.js";
import { skillRoots } from "../../skills/index.js";
import type { Diagnostic } from "../../types.js";
import { MAX_SKILL_WATCH_FOLDERS, skillWatchFolders } from "./_watch-folders.js";

/**
 * Most folders one render's watch holds, every kind together (layers,
 * context folders, imports, rule folders, skills, templates): each is an
 * inotify watch out of the user's few hundred thousand for every program.
 * Imports and rule folders once took 9,500. The skill roots' own cap is
 * within it.
 */
export const MAX_WATCH_FOLDERS = 2 * MAX_SKILL_WATCH_FOLDERS;

/**
 * A folder to watch, never recursively (one watch each). `names`: only these
 * entries of it matter (a context file among other files, one imported
 * file); undefined: every entry does.
 */
export interface WatchTarget {
  dir: string;
  names?: ReadonlySet<string>;
}

/**
 * What one render read, as folders to watch: each layer folder with its
 * `sections/`, `partials/` and `agents/` (SYSTEM, SYSTEM_TEMPLATE and APPEND files sit
 * in the layer folder), the files the systemPrompt / appendSystemPrompt
 * options named, the folders searched for context files (their context file
 * names only) and every imported file, the folders of the skill roots down
 * to each skill (when the render listed skills; see `skillWatchFolders` for
 * the cap, whose warning comes back in `diagnostics`), the working folder's top level (when it listed the
 * workspace tree), and the slash-command template folders. A folder that does
 * not exist yet is watched through its nearest existing ancestor, for the
 * name that leads to it; the next render then watches the folder itself.
 */
export async function watchTargets(
  options: SystemPromptOptions,
  prepared: PreparedPrompt,
  /** `textOnly`: not the folders whose files only their names or none of their text give the prompt (the workspace tree's, the slash-command templates'). */
  only: { textOnly?: boolean } = {},
): Promise<{ targets: WatchTarget[]; diagnostics: Diagnostic[] }> {
  const opts = await normalizeOptions(options);
  const wanted: WatchTarget[] = [];
  const layers = [opts.builtinDir, opts.agentDir, ...(opts.trusted ? [opts.projectDir] : [])];
  for (const dir of layers) {
    wanted.push(
      folder(dir),
      folder(join(dir, "sections")),
      folder(join(dir, "partials")),
      // Agent presets (agents/<name>.yaml): a changed one changes tools, name and files left out.
      folder(join(dir, "agents")),
    );
  }
  for (const path of await optionFiles(options, opts)) wanted.push(file(path));
  const contextNames = new Set(CONTEXT_FILE_NAMES);
  for (const dir of prepared.context.folders) {
    wanted.push({ dir, names: contextNames });
  }
  for (const traced of prepared.context.files) {
    for (const path of traced.imports) wanted.push(file(path));
  }
  if (ranStep(prepared, "rule-files")) {
    // A rule file that appears in a project folder, and every folder a rule file was found in.
    for (const dir of prepared.context.folders) {
      wanted.push({ dir, names: RULE_ENTRY_NAMES });
    }
    for (const dir of new Set(prepared.rules.map((r) => dirname(r.path)))) wanted.push(folder(dir));
  }
  const common = {
    cwd: opts.cwd,
    agentDir: opts.agentDir,
    home: opts.home,
    projectTrusted: opts.trusted,
    projectDir: opts.projectDirName,
  };
  const diagnostics: Diagnostic[] = [];
  const project = await findProjectRoot(opts.cwd);
  if (ranStep(prepared, "skills")) {
    const paths = options.skillPaths ? [...options.skillPaths] : undefined;
    const roots = await skillRoots({ ...common, ...(paths ? { paths } : {}) });
    // The render's deadline bounds the walk as it bounds the render's own skills walk.
    const deadline =
      opts.deadlineMs <= MAX_TIMER_MS ? AbortSignal.timeout(opts.deadlineMs) : undefined;
    const skills = await skillWatchFolders(roots, MAX_SKILL_WATCH_FOLDERS, project, deadline);
    for (const dir of skills.folders) wanted.push(folder(dir));
    // A root that is not there yet, or not walked (a link out of the project),
    // is watched through the folder above it, for its own name.
    for (const root of roots) if (!skills.folders.includes(root)) wanted.push(file(root));
    pushAll(diagnostics, skills.diagnostics);
  }
  // The workspace tree lists the whole working folder; watching all of it
  // (node_modules, .git) would cost a watch per folder, so its top level only.
  if (!only.textOnly) {
    if (ranStep(prepared, "tree")) wanted.push(folder(opts.cwd));
    for (const root of planTemplateRoots(common).roots) wanted.push(folder(root.path));
  }
  // The door's reach of the project, as its listings of layer and template folders ask it.
  const reach = await projectReach({
    start: opts.cwd,
    home: opts.home,
    trusted: opts.trusted,
    root: project,
    // Asked of a few layer and template folders, once a render: bounded by the total budget of a
    // reach's ignore rules, never by the render's deadline (known limit, fx92d).
    signal: NO_DEADLINE,
  });
  const targets = await Promise.all(
    wanted.map(async (t) => confined(await existing(t), project, reach)),
  );
  const dirs = [...new Set(targets.map((t) => t.dir))];
  if (dirs.length <= MAX_WATCH_FOLDERS) return { targets, diagnostics };
  const kept = new Set(dirs.slice(0, MAX_WATCH_FOLDERS));
  diagnostics.push({
    level: "warning",
    code: "watch-cap",
    message: `watching ${MAX_WATCH_FOLDERS} folders in all (of ${dirs.length} that the render read from), the most watch does; changes in the others (the last imports, rule and skill folders) are not seen until a change elsewhere re-renders`,
  });
  return { targets: targets.filter((t) => kept.has(t.dir)), diagnostics };
}

function ranStep(prepared: PreparedPrompt, name: string): boolean {
  return prepared.steps.some((s) => s.name === name && s.status !== "skipped");
}

function folder(dir: string): WatchTarget {
  return { dir };
}

function file(path: string): WatchTarget {
  return { dir: dirname(path), names: new Set([basename(path)]) };
}

/** The files among the systemPrompt / appendSystemPrompt values (the rest is text). */
async function optionFiles(
  options: SystemPromptOptions,
  opts: NormalizedOptions,
): Promise<string[]> {
  const files = opts.systemPrompt?.path ? [opts.systemPrompt.path] : [];
  const appended = options.appendSystemPrompt;
  for (const value of typeof appended === "string" ? [appended] : (appended ?? [])) {
    if (value.includes("\n")) continue;
    const path = resolveUserPath(value, opts.cwd, opts.home);
    if ((await kindOfPath(path)) === "file") files.push(path);
  }
  return files;
}

/**
 * `target` when its folder is outside `project` (by the path as given: your
 * agent dir, the package's prompts) or the door would list it
 * ({@link folderRefused}, the one question every listing of a project folder
 * asks); else the project's own folder nearest it that the door would list,
 * for the name on the way. A project folder the door refuses (`.pi/sections`
 * linked to a folder of your home or into a repository of its own below the
 * project, `.pi` to `/`, a folder another user planted) is read from by no
 * render: it is not watched at all, only its name in the folder above, so
 * its replacement is seen and a change inside it triggers nothing (decided,
 * fx88d, issue 24's known limit: watch judged such a folder by its real path
 * alone, a second copy of the door's rule, and watched a folder linked into a
 * repository of its own below the project whole).
 */
async function confined(target: WatchTarget, project: string, reach: Reach): Promise<WatchTarget> {
  let dir = target.dir;
  let name: string | undefined;
  while (dir !== project && isWithin(dir, project)) {
    if ((await folderRefused(dir, reach)) === undefined) break;
    name = basename(dir);
    dir = dirname(dir);
  }
  return name === undefined ? target : { dir, names: new Set([name]) };
}

/**
 * The target itself when its folder exists (a file path among the roots is
 * watched through its folder); else its nearest existing ancestor, for the
 * one entry on the way to it.
 */
async function existing(target: WatchTarget): Promise<WatchTarget> {
  const kind = await kindOfPath(target.dir);
  if (kind === "dir") return target;
  if (kind === "file") return file(target.dir);
  let child = target.dir;
  for (let dir = dirname(child); ; child = dir, dir = dirname(dir)) {
    if ((await kindOfPath(dir)) === "dir") {
      return { dir, names: new Set([basename(child)]) };
    }
    if (dirname(dir) === dir) return { dir, names: new Set([basename(child)]) };
  }
}
