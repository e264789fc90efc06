import type { Dirent } from "node:fs";
import { isAbsolute, join } from "node:path";
import { pushAll } from "../_arrays.js";
import { kindOfPath, kindOfPathSync, type PathKind } from "../_fs.js";
import { checkpoint } from "../_pace.js";
import { expandHome } from "../_paths.js";
import { capDiagnostics } from "../engine/index.js";
import { boundedByDefault, DEFAULT_DEADLINE_MS, loadDeadline } from "../gather/deadline.js";
import { resolveCommonPaths } from "../locate/layers.js";
import { namedProjectPath } from "../locate/text-or-path.js";
import {
  listProjectFolder,
  listProjectFolderSync,
  NO_DEADLINE,
  type OwnFiles,
  type OwnFilesSync,
  ownAgentDir,
  ownFilesOf,
  ownFilesOfSync,
  projectReach,
  projectReachSync,
  type Reach,
  type RepoText,
  readRepoTexts,
  readRepoTextsSync,
  stopOf,
  stopRefusal,
} from "../repo-files/index.js";
import type { Diagnostic } from "../types.js";
import { planTemplateRoots, type TemplateRoot } from "./_locate.js";
import { mergeTemplates } from "./_merge.js";
import { parsePromptTemplate, TEMPLATE_EXTENSION } from "./parse.js";
import type {
  LoadPromptTemplatesOptions,
  LoadPromptTemplatesResult,
  PromptTemplate,
} from "./types.js";

/** What to do with a root once we know what is there. */
type RootAction = "list" | "read" | Diagnostic[];

/**
 * Loads slash-command templates from `<agentDir>/prompts/` (user),
 * `<cwd>/<projectDir>/prompts/` (project, unless untrusted) and `paths`
 * (option), in that order of precedence. Folders are read one level deep,
 * `.md` files only, in sorted order. Unusable files, invalid frontmatter,
 * missing explicit paths and name collisions come back as diagnostics.
 * `cwd`, `agentDir` and `home` default as for `renderSystemPrompt`. The
 * user's own roots (the agent dir's folder, the `paths` out of the project)
 * are read before the project's (its folder, the `paths` into it), and each
 * root read whole goes to `soFar.value`: without a `signal`, it stops at a
 * render's default deadline (5 s) and gives those, with a `load-deadline`
 * warning.
 */
export async function loadPromptTemplates(
  options: LoadPromptTemplatesOptions & {
    /** Awaited once the user's own roots are read, before any of the project's is. */
    beforeProject?: () => Promise<void>;
  } = {},
): Promise<LoadPromptTemplatesResult> {
  if (options.signal === undefined) {
    // Past the deadline, the roots read whole (the user's first) are kept.
    const soFar = options.soFar ?? {};
    return boundedByDefault(
      undefined,
      "slash-command templates",
      (signal) => loadPromptTemplates({ ...options, signal, soFar }),
      { soFar: () => soFar.value ?? { templates: [], diagnostics: [] } },
    );
  }
  // Not an agent dir the untrusted project holds (HOME inside the checkout), unless you named it.
  const paths = resolveCommonPaths(options);
  const { dir: agentDir } = await ownAgentDir(paths.agentDir, {
    ...paths,
    trusted: options.projectTrusted !== false,
    named: paths.agentDirNamed,
  });
  const plan = planTemplateRoots({ ...options, agentDir });
  const diagnostics: Diagnostic[] = [];
  // Your templates (read with no reach): one whose real path lies in a checkout is read through
  // that checkout's door, with the render's trust, as your layer's files are (review rev98a F1).
  let ownFiles: Promise<OwnFiles> | undefined;
  const ownOf = () => {
    ownFiles ??= ownFilesOf(agentDir, {
      home: paths.home,
      cwd: paths.cwd,
      trusted: options.projectTrusted !== false,
      env: options.env,
      signal: options.signal,
    });
    return ownFiles;
  };
  const untrusted = plan.untrustedProjectFolder;
  if (untrusted !== undefined && (await kindOfPath(untrusted)) !== "missing") {
    diagnostics.push(untrustedDiagnostic(untrusted));
  }
  // Each root's templates and diagnostics, in plan order whatever the order they are read in.
  const slots: ({ loaded: PromptTemplate[]; diagnostics: Diagnostic[] } | undefined)[] =
    plan.roots.map(() => undefined);
  const gathered = () => {
    const done = slots.filter((slot) => slot !== undefined);
    return finish(
      done.flatMap((slot) => slot.loaded),
      [...diagnostics, ...done.flatMap((slot) => slot.diagnostics)],
    );
  };
  // A path named into the project (`.pi/prompts`, `../prompts` from its submodule) names the
  // project's templates, read within it as readTextOrPath reads a named file of it. Your agent
  // dir's folder is read (and kept in `soFar`) before any named path is walked, and a named path
  // whose links could not be checked (too deep, or the deadline) is that path's warning alone.
  const named: (Awaited<ReturnType<typeof namedIntoProject>> | Diagnostic)[] = [];
  const readRoot = async (i: number) => {
    const root = plan.roots[i] as TemplateRoot;
    const at = named[i];
    const slot = { loaded: [] as PromptTemplate[], diagnostics: [] as Diagnostic[] };
    if (at !== undefined && "level" in at) {
      slot.diagnostics.push(at);
    } else {
      // A project's templates stay in cwd's project, whatever their links say.
      const reach = root.source === "project" ? await projectReach(projectOf(options)) : at?.reach;
      const place = at ? { ...root, path: at.path } : root;
      const files = await filesOfRoot(place, reach, slot.diagnostics);
      // Read to the root's total, collect (parse) in listing order, the signal heard between two.
      const own = reach ? undefined : await ownOf();
      const { reads, notRead } = await readRepoTexts(files, { reach, own }, MAX_PROMPT_ROOT_CHARS);
      for (const [j, read] of reads.entries()) {
        await checkpoint(options.signal);
        collectTemplate(read, files[j] ?? "", root, slot.loaded, slot.diagnostics);
      }
      if (notRead > 0) slot.diagnostics.push(totalCut(root.path, notRead));
    }
    slots[i] = slot;
    if (options.soFar) options.soFar.value = gathered();
  };
  const keys = [...plan.roots.keys()];
  const first = keys.filter((i) => plan.roots[i]?.source === "user");
  for (const i of first) await readRoot(i);
  for (const root of plan.roots) named.push(await namedIntoProjectOrStop(root, options));
  // Then the user's other roots (the paths named out of the project, `~/mytpls`), then the
  // project's (its folder and the paths named into it): what a load stopped later still gives,
  // the roots read whole, holds every one of the user's.
  const own = (i: number) => {
    const at = named[i];
    return plan.roots[i]?.source !== "project" && (at === undefined || "level" in at);
  };
  const rest = keys.filter((i) => !first.includes(i));
  for (const i of rest.filter(own)) await readRoot(i);
  await options.beforeProject?.();
  for (const i of rest.filter((i) => !own(i))) await readRoot(i);
  return gathered();
}

/**
 * Synchronous twin of {@link loadPromptTemplates}, for callers that cannot
 * await. No signal can be heard in it, so it parses for at most a render's
 * default deadline (a project's 8 MiB of dense YAML frontmatter parse for
 * tens of seconds); past it, the rest are left out with a `load-deadline` warning.
 */
export function loadPromptTemplatesSync(
  options: LoadPromptTemplatesOptions = {},
): LoadPromptTemplatesResult {
  const until = performance.now() + DEFAULT_DEADLINE_MS;
  const plan = planTemplateRoots(options);
  const diagnostics: Diagnostic[] = [];
  const untrusted = plan.untrustedProjectFolder;
  if (untrusted !== undefined && kindOfPathSync(untrusted) !== "missing") {
    diagnostics.push(untrustedDiagnostic(untrusted));
  }
  const loaded: PromptTemplate[] = [];
  // Your templates: one whose real path lies in a checkout is read through that checkout's door,
  // as loadPromptTemplates reads it (review rev98a F1); placed once the first is read.
  let own: OwnFilesSync | undefined;
  const yours = () => {
    const { agentDir, home, cwd } = resolveCommonPaths(options);
    own ??= ownFilesOfSync(agentDir, {
      home,
      trusted: options.projectTrusted !== false,
      cwd,
      env: options.env,
    });
    return own;
  };
  for (const root of plan.roots) {
    const reach = root.source === "project" ? projectReachSync(projectOf(options)) : undefined;
    const files = filesOfRootSync(root, reach, diagnostics);
    const door = reach ? { reach } : { own: files.length > 0 ? yours() : undefined };
    const { reads, notRead } = readRepoTextsSync(files, door, MAX_PROMPT_ROOT_CHARS);
    for (const [i, read] of reads.entries()) {
      if (performance.now() > until) {
        diagnostics.push(loadDeadline("slash-command templates", DEFAULT_DEADLINE_MS));
        return finish(loaded, diagnostics);
      }
      collectTemplate(read, files[i] ?? "", root, loaded, diagnostics);
    }
    if (notRead > 0) diagnostics.push(totalCut(root.path, notRead));
  }
  return finish(loaded, diagnostics);
}

/** {@link namedIntoProject}, or the warning of a path whose links could not be checked (too deep, the deadline). */
async function namedIntoProjectOrStop(
  root: TemplateRoot,
  options: LoadPromptTemplatesOptions,
): Promise<Awaited<ReturnType<typeof namedIntoProject>> | Diagnostic> {
  try {
    return await namedIntoProject(root, options);
  } catch (error) {
    const stop = stopOf(error);
    if (stop === undefined) throw error;
    const refusal = stopRefusal(stop);
    return {
      level: "warning",
      code: refusal.code,
      message: `not read: ${refusal.message}`,
      path: root.path,
    };
  }
}

/** The project of cwd, for the reach of its templates. */
/** An option's path into the project: spelled for the door, with the reach it is read in. */
async function namedIntoProject(root: TemplateRoot, options: LoadPromptTemplatesOptions) {
  if (root.named === undefined) return undefined;
  const kind = await kindOfPath(root.path);
  if (kind !== "file" && kind !== "dir") return undefined;
  const { cwd, home } = resolveCommonPaths(options);
  return namedProjectPath(root.path, {
    absolute: isAbsolute(expandHome(root.named, home)),
    cwd,
    home,
    trusted: options.projectTrusted !== false,
    signal: options.signal,
  });
}

function projectOf(options: LoadPromptTemplatesOptions) {
  const { cwd, home } = resolveCommonPaths(options);
  return { start: cwd, home, trusted: true, signal: options.signal ?? NO_DEADLINE };
}

/**
 * The files of one root: itself, or its `.md` files. A folder of the project
 * is asked of the door first (`reach`): one whose real path leaves the project
 * (`.pi/prompts` linked to `~/.ssh`) is one warning naming it, not listed
 * (decided, review rev82e F2).
 */
async function filesOfRoot(
  root: TemplateRoot,
  reach: Reach | undefined,
  diagnostics: Diagnostic[],
): Promise<string[]> {
  const action = actionForRoot(root, await kindOfPath(root.path));
  if (action === "read") return [root.path];
  if (action !== "list") {
    pushAll(diagnostics, action);
    return [];
  }
  // Checked and listed through one held folder (rev88a F2).
  const listing = await listProjectFolder(root.path, reach, {
    maxEntries: MAX_PROMPT_FOLDER_ENTRIES,
  });
  if ("refused" in listing) {
    diagnostics.push(listing.refused);
    return [];
  }
  if ("error" in listing) {
    diagnostics.push(unreadableFolder(root.path, listing.error));
    return [];
  }
  if (listing.capped) {
    diagnostics.push(tooLarge(root.path));
    return [];
  }
  const entries = listing.entries;
  const files: string[] = [];
  for (const entry of markdownEntries(entries)) {
    const path = join(root.path, entry.name);
    if (entry.isSymbolicLink() && (await kindOfPath(path)) === "missing") {
      diagnostics.push(brokenSymlink(path));
    } else {
      files.push(path);
    }
  }
  return files;
}

/** Synchronous twin of {@link filesOfRoot}. */
function filesOfRootSync(
  root: TemplateRoot,
  reach: Omit<Reach, "isPrivate"> | undefined,
  diagnostics: Diagnostic[],
): string[] {
  const action = actionForRoot(root, kindOfPathSync(root.path));
  if (action === "read") return [root.path];
  if (action !== "list") {
    pushAll(diagnostics, action);
    return [];
  }
  const listing = listProjectFolderSync(root.path, reach, MAX_PROMPT_FOLDER_ENTRIES);
  if ("refused" in listing) {
    diagnostics.push(listing.refused);
    return [];
  }
  if ("error" in listing) {
    diagnostics.push(unreadableFolder(root.path, listing.error));
    return [];
  }
  if (listing.capped) {
    diagnostics.push(tooLarge(root.path));
    return [];
  }
  const files: string[] = [];
  for (const entry of markdownEntries(listing.entries)) {
    const path = join(root.path, entry.name);
    if (entry.isSymbolicLink() && kindOfPathSync(path) === "missing") {
      diagnostics.push(brokenSymlink(path));
    } else {
      files.push(path);
    }
  }
  return files;
}

function actionForRoot(root: TemplateRoot, kind: PathKind): RootAction {
  if (kind === "dir") return "list";
  const problem = (level: Diagnostic["level"], code: string, message: string): RootAction => [
    { level, code, message, path: root.path },
  ];
  if (!root.explicit) {
    // A default folder that does not exist is the normal case: nothing to say.
    if (kind === "missing") return [];
    return problem(
      "warning",
      "prompts-not-folder",
      "prompt templates folder is not a folder; skipped",
    );
  }
  if (kind === "missing") return problem("error", "path-missing", "prompt template path not found");
  if (kind === "other") {
    return problem(
      "error",
      "path-not-file",
      "prompt template path is neither a file nor a folder; skipped without opening it",
    );
  }
  if (!root.path.endsWith(TEMPLATE_EXTENSION)) {
    return problem(
      "error",
      "path-not-markdown",
      `prompt template path is not a ${TEMPLATE_EXTENSION} file; skipped`,
    );
  }
  return "read";
}

/** Entries named `*.md` (case-sensitive), sorted by code unit so every machine agrees. */
function markdownEntries(entries: Dirent[]): Dirent[] {
  return entries
    .filter((entry) => entry.name.endsWith(TEMPLATE_EXTENSION))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function collectTemplate(
  read: RepoText,
  path: string,
  root: TemplateRoot,
  loaded: PromptTemplate[],
  diagnostics: Diagnostic[],
): void {
  pushAll(diagnostics, read.diagnostics);
  if (!read.ok) return;
  const parsed = parsePromptTemplate(read.text, path, root.source);
  pushAll(diagnostics, parsed.diagnostics);
  if (parsed.template) loaded.push(parsed.template);
}

function finish(loaded: PromptTemplate[], diagnostics: Diagnostic[]): LoadPromptTemplatesResult {
  const merged = mergeTemplates(loaded);
  return {
    templates: merged.templates,
    diagnostics: capDiagnostics([...diagnostics, ...merged.diagnostics]),
  };
}

function untrustedDiagnostic(folder: string): Diagnostic {
  return {
    level: "info",
    code: "project-untrusted",
    message: "project prompt templates skipped: the project is not trusted",
    path: folder,
  };
}

function brokenSymlink(path: string): Diagnostic {
  return {
    level: "info",
    code: "symlink-broken",
    message: "broken symbolic link skipped",
    path,
  };
}

/**
 * Entries of one prompts folder read at most: each .md file is a template,
 * read and parsed; a folder holds some dozens.
 */
export const MAX_PROMPT_FOLDER_ENTRIES = 1000;

/**
 * Characters of templates one root gives at most, its files' text together:
 * the files after the one that passes it are not read. A template is some
 * KiB; each may be 1 MiB, and 999 links to one such file held 2.1 GB and
 * took `list` 66 s.
 */
export const MAX_PROMPT_ROOT_CHARS = 8 * 1024 * 1024;

function totalCut(path: string, notRead: number): Diagnostic {
  return {
    level: "warning",
    code: "prompts-total-cut",
    message: `the prompt templates here hold more than ${MAX_PROMPT_ROOT_CHARS / (1024 * 1024)} MiB together: the last ${notRead} ${notRead === 1 ? "file is" : "files are"} not read`,
    path,
  };
}

function tooLarge(path: string): Diagnostic {
  return {
    level: "warning",
    code: "prompts-folder-too-large",
    message: `more than ${MAX_PROMPT_FOLDER_ENTRIES} entries in the prompt templates folder: none of them read`,
    path,
  };
}

function unreadableFolder(path: string, error: unknown): Diagnostic {
  return {
    level: "warning",
    code: "prompts-unreadable",
    message: `cannot list prompt templates folder: ${error instanceof Error ? error.message : String(error)}`,
    path,
  };
}
