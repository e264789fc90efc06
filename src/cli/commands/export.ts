import { dirname, relative, resolve, sep } from "node:path";
import { CacheFolderRefused, readyCacheFolder } from "../../_cache-location.js";
import { lstat, realpath, stat } from "../../_io.js";
import { othersMayWrite } from "../../_others-write.js";
import { homeFolder, isWithin, resolveUserPath, toPosix } from "../../_paths.js";
import { sharedOnTheWay } from "../../_shared-way.js";
import { escapeInline } from "../../_text.js";
import type { ExportSpec } from "../../agents/index.js";
import { defaultExportPath, settingLine, writeExport } from "../../agents/index.js";
import { runStep } from "../../gather/deadline.js";
import {
  findSystemBinary,
  projectFolders,
  systemBinaries,
  systemPathEntries,
} from "../../gather/environment/index.js";
import { recordExportNames } from "../../hook/export-names.js";
import {
  HOOK_SNIPPET_AGENTS,
  hasHookSnippet,
  hookSnippet,
  movedFoldersSaid,
  type PromptFolder,
} from "../../hook/snippet.js";
import { envAgentDir } from "../../locate/layers.js";
import { type PreparedPrompt, preparePrompt, renderPrepared } from "../../render-system-prompt.js";
import { findProjectRoot } from "../../repo-files/index.js";
import { insideRepository } from "../../repo-files/project-root.js";
import type { Diagnostic } from "../../types.js";
import { formatDiagnostics } from "../format.js";
import {
  type CliIo,
  EXIT_OK,
  EXIT_PROBLEMS,
  exitCodeFor,
  RefusedError,
  UsageError,
} from "../io.js";
import { type RenderFlags, toRenderOptions } from "../options.js";
import {
  namedOutput,
  outputPath,
  refuseEmptyPrompt,
  refuseRenderInput,
  refuseSettingsBlock,
  writeError,
} from "./_output-file.js";

export interface ExportFlags extends RenderFlags {
  /** `--out PATH`: where to write instead of the default export folder. */
  out?: string;
  /** `--hooks`: print the agent's hook settings instead of exporting the prompt. */
  hooks?: boolean;
  /** `--force`: write `--out` onto a file this render reads, or a trusted project's prompt onto an agent's global instructions file. */
  force?: boolean;
}

/** Where an export goes and what the agent needs to read it. */
export interface ExportTarget {
  agent: string;
  path: string;
  /** How `path` is written when that differs (an `--out` spelled under the project's real root: {@link outputTarget}). */
  write?: string;
  /** The folder below which no folder may be a link: the `sysprompt` cache folder, or, for an --out, {@link outputTarget}'s. */
  within?: string;
  /** `within` is the `sysprompt` cache folder (no --out): it too must be a real folder of yours ({@link readyCacheFolder}). */
  cache?: boolean;
  spec: ExportSpec;
  /** The one line to add to the agent's settings or command line. */
  setting: string;
  /** The folder the setting's path is written from (opencode's `{file:./…}`), when it is not absolute. */
  from?: string;
  /** The prompt folder `--out` is a file of (`.github/agents`): {@link refuseSettingsBlock}. */
  promptFolder?: PromptFolder;
  /** What loads `--out` by itself, written as `--force` asks ({@link NamedOutput}): the hint says so. */
  loadedItself?: string;
}

/**
 * The export target of the agent's preset: `--out` (relative to where the
 * command runs, `~` the home folder), else the agent's file in the default
 * export folder. `agent` is the resolved option (`--agent`, else a
 * sysprompt.yaml's `agent:`). No agent, or a preset without an export (pi),
 * is a usage error.
 */
export async function exportTarget(
  preset: { export: ExportSpec | null } | undefined,
  agent: string | undefined,
  flags: ExportFlags,
  io: CliIo,
): Promise<ExportTarget> {
  if (agent === undefined || !preset) {
    throw new UsageError(
      "export needs --agent NAME: the agent whose file to write (claude-code, codex, gemini-cli, opencode)",
    );
  }
  const spec = preset.export;
  if (spec === null) {
    throw new UsageError(
      agent === "pi"
        ? "pi renders sysprompt's prompt itself (install sysprompt as a pi package): there is nothing to export; pass --agent claude-code, codex, gemini-cli or opencode"
        : `the preset "${agent}" says nothing about export (no export: key in its agents/${agent}.yaml)`,
    );
  }
  const home = io.home ?? homeFolder();
  if (flags.out === "-") {
    throw new UsageError(
      `--out -: export writes a file for ${agent} to read, and stdout has the line to add; for the prompt on stdout, run sysprompt render --agent ${agent}`,
    );
  }
  // `--out` is checked as `render -o` is (namedOutput): into the project, from its root down,
  // and never an agent's settings or a file another program runs.
  const given = flags.cwd === undefined ? io.cwd : resolveUserPath(flags.cwd, io.cwd, home);
  // The folder the agent runs in, by its real path (as its own getcwd gives it); it holds the project's top.
  const working = await realpath(given).catch(() => given);
  // The real root of its project: whose default export file it is.
  const project = await findProjectRoot(working);
  const target: {
    path: string;
    write?: string;
    root?: string;
    promptFolder?: PromptFolder;
    loadedItself?: string;
  } =
    flags.out !== undefined
      ? await outTarget(outputPath(flags.out, "--out", io, home), flags, io, home)
      : defaultExportPath(agent, spec, { env: io.env, home, project });
  // The setting is one line to paste: a path with a line break or another control
  // character (from $XDG_CACHE_HOME or --out) would make it two, or hide part of it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(target.path)) {
    throw new UsageError(
      `export: the path ${JSON.stringify(target.path)} has a control character, which the setting line cannot hold; pass --out with a plain path`,
    );
  }
  const named = namedSetting(agent, spec, target.path, project, working);
  return {
    agent,
    path: target.path,
    ...(target.write !== undefined ? { write: target.write } : {}),
    ...(target.root !== undefined ? { within: target.root } : {}),
    ...(flags.out === undefined ? { cache: true } : {}),
    ...(target.promptFolder !== undefined ? { promptFolder: target.promptFolder } : {}),
    ...(target.loadedItself !== undefined ? { loadedItself: target.loadedItself } : {}),
    // Where the advice names your agent's folder, as its variable moves it (review rev108c F6).
    spec: { ...spec, where: movedFoldersSaid(spec.where, io.env, home) },
    ...named,
  };
}

/**
 * The setting line naming `path`, else (opencode's `{file:}` cannot hold a `}`, a `{env:`, a
 * `"` or a `\`: rev64d F5) naming it as `./…` from `project`'s top, where that project's
 * opencode.json is and opencode reads a relative path from, when that avoids them.
 *
 * @throws RefusedError when neither can name it, or (opencode) when the path of `working`, the
 * folder it runs in (so of the project's top and every folder down to it: rev67a F4), holds a
 * `\`: opencode 1.18.33 reads it as `/` and works in another folder (run: from `kit\x` it sent
 * `kit/x`'s AGENTS.md and never read `kit\x/opencode.json`), so no line reaches it there.
 */
function namedSetting(
  agent: string,
  spec: ExportSpec,
  path: string,
  project: string,
  working: string,
): { setting: string; from?: string } {
  // On Windows `\` is the separator: the finding is of a `\` in a POSIX folder name.
  if (spec.quote === "opencode" && sep === "/" && working.includes("\\")) {
    throw new RefusedError(
      `export: ${agent} does not work in ${JSON.stringify(working)}: it reads the \\ in that path as a / (it works in ${JSON.stringify(working.replaceAll("\\", "/"))} instead, with that folder's opencode.json and AGENTS.md), so no line makes it read the exported file; rename the folder`,
    );
  }
  const setting = settingLine(spec, path);
  if (setting !== undefined) return { setting };
  // Gemini CLI's line goes in a shell or its .env (dotenv): a `'` with one of these, no word both read as written (rev82d F1).
  if (spec.quote === "env")
    throw new RefusedError(
      `export: ${agent}'s setting cannot name ${JSON.stringify(path)}: a path with a ' and a ", $, \`,  or ! is read as another path in a shell or in .gemini/.env; pass --out with a path without them`,
    );
  const inProject = relative(project, path);
  const fromTop = isWithin(path, project) ? settingLine(spec, `./${inProject}`) : undefined;
  if (fromTop !== undefined) return { setting: fromTop, from: project };
  throw new RefusedError(
    `export: ${agent}'s setting cannot name ${JSON.stringify(path)}: a }, {env:, " or \\ in its path (and in its path from the project's top) names another file there; pass --out with a path without them`,
  );
}

/**
 * `--out`, resolved, with {@link namedOutput}'s `within`. The path is kept as
 * the user wrote it for the setting line; `write` is how it is written when
 * the check spelled it under the project's real root.
 */
async function outTarget(
  path: string,
  flags: ExportFlags,
  io: CliIo,
  home: string,
): Promise<{
  path: string;
  write?: string;
  root?: string;
  promptFolder?: PromptFolder;
  loadedItself?: string;
}> {
  const out = await namedOutput(path, flags, io, home, "export");
  const shared = await sharedFolderOf(out.path);
  if (shared !== undefined) {
    throw new RefusedError(
      `export: ${shared}; sysprompt writes its export files only below folders no one else can write in or owns: run chmod go-w on it if it is yours, or pass --out with a path of yours`,
    );
  }
  const open = await openToOthers(out.path);
  if (open !== undefined) {
    io.stderr(
      `sysprompt: warning: ${escapeInline(path)} could be written by other users (${open}): it is written anew, a new file without group or other write; look at what the agent read from it before\n`,
    );
  }
  return {
    path,
    ...(out.path !== path ? { write: out.path } : {}),
    ...(out.within !== undefined ? { root: out.within } : {}),
    ...(out.promptFolder !== undefined ? { promptFolder: out.promptFolder } : {}),
    ...(out.loadedItself !== undefined ? { loadedItself: out.loadedItself } : {}),
  };
}

/**
 * How others could write the regular file at `path` (`mode 0666`, `owned by
 * uid N`), or undefined: such a user could have put his prompt there without
 * a rename. The write replaces it with a new file that keeps no group or
 * other write bit (`keptMode`, review rev77d F4), and this is said.
 */
async function openToOthers(path: string): Promise<string | undefined> {
  const me = process.getuid?.();
  const s = await lstat(path).catch(() => undefined);
  if (me === undefined || s === undefined || !s.isFile()) return undefined;
  const foreign = s.uid !== me && s.uid !== 0;
  if (!othersMayWrite(s) && !foreign) return undefined;
  const mode = `mode ${(s.mode & 0o7777).toString(8).padStart(4, "0")}`;
  return foreign ? `${mode}, owned by uid ${s.uid}` : mode;
}

/**
 * The first folder, from the one that holds `path` (or the nearest one above it
 * that is there) up to `/` by real paths, that another user may write in or
 * owns (he may rename any entry in his folder: review rev77d F5), said
 * as the cache folder's check says it; undefined when none. Such a user could
 * rename the export file, or a folder holding it, and put in his own, which
 * the agent reads as its system prompt at each start (rev58d F6). A sticky
 * folder of yours or root's (`/tmp`) is not one: no one else may rename your
 * file in it (but another user's folder in it is). The one walk of the PATH
 * search too ({@link sharedOnTheWay}).
 */
async function sharedFolderOf(path: string): Promise<string | undefined> {
  let folder = dirname(path);
  let real = await realpath(folder).catch(() => undefined);
  while (real === undefined && dirname(folder) !== folder) {
    folder = dirname(folder);
    real = await realpath(folder).catch(() => undefined);
  }
  return real === undefined
    ? undefined
    : await sharedOnTheWay(real, { folder: "written", owners: true });
}

/** What a resolved render says about its agent: {@link PreparedPrompt}'s, or a watch's before its first render. */
export interface ResolvedAgent {
  preset?: { name: string; export: ExportSpec | null; ignored?: { path: string; line?: number } };
  provenance?: Readonly<Record<string, string>>;
  diagnostics?: readonly Diagnostic[];
}

/**
 * The agent option as the render resolved it: the preset in use, unless no
 * flag and no sysprompt.yaml named one (then the default pi is not a choice).
 */
export function exportAgent(resolved: ResolvedAgent) {
  const from = resolved.provenance?.agent;
  return from === undefined || from === "default" ? undefined : resolved.preset?.name;
}

/**
 * The export target of a resolved render, or a line saying why there is none
 * when a sysprompt.yaml's `agent:` named no preset and no `--agent` was given:
 * that is the file's problem (its diagnostic has the path and line), exit 1,
 * not a usage error.
 */
export async function resolvedTarget(
  resolved: ResolvedAgent,
  flags: ExportFlags,
  io: CliIo,
): Promise<ExportTarget | { notExported: string }> {
  const ignored = resolved.preset?.ignored;
  if (ignored && flags.agent === undefined) {
    const at = `${ignored.path}${ignored.line === undefined ? "" : `:${ignored.line}`}`;
    return {
      notExported: `sysprompt: nothing exported: the agent: at ${at} names no preset (see above); fix it there, or pass --agent NAME\n`,
    };
  }
  const agent = exportAgent(resolved);
  if (agent === undefined && flags.agent === undefined) {
    // A broken or misspelt sysprompt.yaml (agnet: codex) may be why none is named: said first.
    const config = (resolved.diagnostics ?? []).filter((d) => d.code.startsWith("config-"));
    io.stderr(formatDiagnostics(config));
  }
  return exportTarget(resolved.preset, agent, flags, io);
}

/** The lines that say where the export goes and what to add to the agent's settings. */
export function settingHint(target: ExportTarget): string {
  const from =
    target.from === undefined
      ? ""
      : ` (its path is from the project's top, ${escapeInline(target.from)}: the opencode.json there)`;
  // A file the agent loads by itself anyway (written as --force asks): "when you start it in this
  // project" is not all it does (review rev96d F2).
  const also =
    target.loadedItself === undefined
      ? ""
      : `; but not only then: ${target.loadedItself}, with or without this line`;
  return `for ${target.agent}, add this line to ${target.spec.where}${from}${also}:`;
}

function readyCache(folder: string): void {
  try {
    readyCacheFolder(folder);
  } catch (error) {
    // One advice: the refusal's own, with --out as its other way out (`…, or pass --out …`).
    const refused = error instanceof CacheFolderRefused && error.advice !== undefined;
    const lead = refused ? `${error.message}, or` : `${(error as Error).message};`;
    throw new RefusedError(`export: ${lead} pass --out with a path of yours`);
  }
}

/** Writes `text` to the target when its bytes changed; a path that cannot be written safely is exit 2, a failed write exit 1. */
export async function writeTarget(target: ExportTarget, text: string) {
  refuseSettingsBlock(text, target.promptFolder, "export", target.path);
  refuseEmptyPrompt(text, "export", target.path);
  try {
    if (target.cache && target.within !== undefined) readyCache(target.within);
    return await writeExport(target.write ?? target.path, text, target.within, target.cache);
  } catch (error) {
    throw writeError("export", error);
  }
}

/**
 * `sysprompt export --agent NAME [--out PATH]`: renders the prompt for that
 * agent and writes it to its file, only when the bytes changed (so an agent
 * or a watcher of the file sees a change only when there is one), never
 * through a link; says "wrote" or "unchanged" on stderr, with the
 * diagnostics, and prints on stdout the one line to add to the agent's
 * settings or command line. It never edits another agent's configuration.
 */
export async function exportCommand(flags: ExportFlags, io: CliIo): Promise<number> {
  if (flags.hooks) return await hooksCommand(flags, io);
  const options = toRenderOptions(flags, io.cwd, io.env, io.home, io.machine);
  const prepared = await preparePrompt(options, runStep, "cli");
  const target = await resolvedTarget(prepared, flags, io);
  if ("notExported" in target) {
    io.stderr(formatDiagnostics(prepared.diagnostics));
    io.stderr(target.notExported);
    return EXIT_PROBLEMS;
  }
  if (flags.out !== undefined) {
    await refuseRenderInput(
      options,
      prepared,
      { path: target.write ?? target.path, within: target.within },
      flags.out,
      "export",
      flags.force,
      io.stderr,
      io.passwd,
    );
  }
  const result = renderPrepared(prepared);
  // An empty prompt is refused by the write (refuseEmptyPrompt): its cause said before the refusal.
  const empty = result.text.trim() === "";
  if (empty) io.stderr(formatDiagnostics(result.diagnostics));
  const outcome = await writeTarget(target, result.text);
  io.stderr(formatDiagnostics(result.diagnostics));
  keepNamesForHook(target, prepared, io);
  io.stderr(
    `sysprompt: ${outcome === "written" ? "wrote" : "unchanged:"} ${escapeInline(target.path)}\nsysprompt: ${settingHint(target)}\n`,
  );
  io.stdout(`${target.setting}\n`);
  return exitCodeFor(result.diagnostics, flags.strict);
}

/**
 * Keeps the element names the export escaped the repository's texts against
 * for the agent's hook ({@link recordExportNames}): the names its own flags
 * gave (`--append-system-prompt "<deploy_rules>…"`) are known to no config
 * file the hook reads. An `--out` export keeps them only in a cache folder
 * that is there already (it never makes one). A cache that cannot be
 * written is said, not fatal.
 */
export function keepNamesForHook(
  { agent, cache }: Pick<ExportTarget, "agent" | "cache">,
  prepared: Pick<PreparedPrompt, "wrapperNames" | "ownWrapperNames">,
  io: CliIo,
): void {
  if (!hasHookSnippet(agent) || prepared.wrapperNames === undefined) return;
  const names = { own: prepared.ownWrapperNames ?? [], all: prepared.wrapperNames };
  try {
    recordExportNames(agent, names, {
      env: io.env,
      home: io.home ?? homeFolder(),
      create: cache === true,
    });
  } catch (error) {
    io.stderr(
      `sysprompt: warning: the element names of this export are not kept for the ${agent} hook (${(error as Error).message}): files it gives on touch are escaped against your config files' names only\n`,
    );
  }
}

/**
 * Whether `self` lies, by its path or its real path, in a folder the project of
 * the working folder controls (see `projectFolders`): a project's own install.
 */
async function insideProject(self: string, io: CliIo): Promise<boolean> {
  const folders = await projectFolders([io.cwd], [self], io.home);
  const real = await realpath(self).catch(() => self);
  return folders.some((f) => isWithin(self, f) || isWithin(real, f));
}

/**
 * The node binary the hook command names: the one running now, by the name
 * an absolute `PATH` entry outside the project gives it (`/usr/bin/node`,
 * Homebrew's `/opt/homebrew/bin/node`, which outlive an upgrade), else by its
 * own path. Never a bare `node`: the agent runs the hook in the project's
 * folder, and a relative `PATH` entry there (`./node_modules/.bin`, `.`, an
 * empty one) would run the project's. A running node that is the project's
 * own (the npm package `node` in its node_modules, run by `npx`) is not
 * named: the first system node on `PATH` is, else none (undefined).
 */
export async function hookNode(
  io: Pick<CliIo, "cwd" | "env" | "home">,
  execPath: string = process.execPath,
): Promise<string | undefined> {
  if (process.platform === "win32") return execPath;
  const running = await realpath(execPath).catch(() => execPath);
  const exclude = await projectFolders([io.cwd], [...systemPathEntries(io.env), running], io.home);
  // The home folder is never a project (run from ~, nvm's ~/.nvm/…/node is yours).
  const home = resolve(io.home ?? homeFolder());
  const projects = exclude.filter((f) => !isWithin(home, f));
  const theProjects = [execPath, running].some(
    (p) => p.split(sep).includes("node_modules") || projects.some((f) => isWithin(p, f)),
  );
  if (theProjects) return await findSystemBinary("node", io.env, { exclude, home: io.home });
  // Only a node the PATH search would run (no folder on its way that another user may write, or
  // owns: review rev71d F2), else the running node by its own path.
  for await (const candidate of systemBinaries("node", io.env, { exclude, home: io.home })) {
    if ((await realpath(candidate).catch(() => undefined)) === running) return candidate;
  }
  // By its own path only when the PATH search's rule holds of it too (review rev73a F3), else the
  // first system node that passes, as for a project's own node, else refused.
  const shared = await replaceableBinary(execPath);
  if (shared === undefined) return execPath;
  const system = await findSystemBinary("node", io.env, { exclude, home: io.home });
  if (system !== undefined) return system;
  throw new RefusedError(
    `export --hooks: ${escapeInline(shared)}, on the way to the node running this sysprompt (${escapeInline(execPath)}), and no node on an absolute PATH entry passes; the hook would run, at every tool call, whatever another user puts there: run it with a node of yours or the system's`,
  );
}

/**
 * Why another user could replace the binary or script at `path` (the PATH
 * search's rule): it, or a folder on its way (links followed), may be
 * written by another user or is owned by one; undefined when none. Asked of
 * the node `export --hooks` names and of the file it has the agent run.
 */
async function replaceableBinary(path: string): Promise<string | undefined> {
  const me = process.getuid?.();
  if (me === undefined) return undefined;
  const file = await stat(path).catch(() => undefined);
  if (file !== undefined && (othersMayWrite(file) || (file.uid !== me && file.uid !== 0))) {
    return `${path}: replaceable by another user (mode ${(file.mode & 0o7777).toString(8).padStart(4, "0")}, owned by uid ${file.uid})`;
  }
  return await sharedOnTheWay(path, { owners: true });
}

/**
 * Whether `self` lies, by its path or its real path, in npm's npx cache
 * (`~/.npm/_npx/<hash>/`): npm names that folder by the package spec alone
 * (`sysprompt`), so a later `npx sysprompt` reinstalls into it whatever its
 * registry calls the latest version.
 */
async function inNpxCache(self: string): Promise<boolean> {
  const real = await realpath(self).catch(() => self);
  return [self, real].some((p) => p.split(/[\\/]/).includes("_npx"));
}

/**
 * What `export --untrusted --hooks` says when your home folder is a git work tree
 * (dotfiles) and `$SYSPROMPT_AGENT_DIR` names no agent dir: from a folder under
 * it with no repository of its own, the home's repository is the project, so the
 * untrusted hook leaves your agent dir inside it out (rev58a F1), and the hook
 * takes no `--agent-dir`; the variable, in the agent's environment, names it
 * (review rev109e F2). Undefined otherwise.
 */
async function dotfilesHomeNote(
  agent: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): Promise<string | undefined> {
  if (envAgentDir(env) !== undefined || !(await insideRepository(home))) return undefined;
  const runs = agent === "opencode" ? "the plugin" : "the hook";
  return `note: your home folder ${escapeInline(toPosix(home))} is a git work tree: in a folder under it with no repository of its own (~/scratch), its repository is the project, and ${runs}, untrusted, leaves your agent dir inside it (~/.pi/agent) out, your rules with it; set SYSPROMPT_AGENT_DIR=~/.pi/agent in the environment ${agent} starts with (${runs} has it too) to read it there`;
}

/**
 * `sysprompt export --agent NAME --hooks`: prints on stdout the snippet for
 * the agent's settings that runs `sysprompt hook NAME` after its tool calls
 * (opencode: the plugin file), with this sysprompt's path in it; with
 * `--untrusted`, `hook NAME --untrusted` (opencode: its untrusted plugin file).
 * On stderr, where it goes, which trust it runs with and what the agent asks
 * before it runs a project's hook.
 * Nothing is rendered or written.
 */
async function hooksCommand(flags: ExportFlags, io: CliIo): Promise<number> {
  // A flag is acted on or refused: a user who expects the settings in that file is told (rev66d F3).
  if (flags.out !== undefined) {
    throw new UsageError(
      "--hooks writes no file (it prints the hook settings on stdout): leave out --out, or redirect stdout",
    );
  }
  const agent = flags.agent;
  if (agent === undefined || !hasHookSnippet(agent)) {
    throw new UsageError(
      `export --hooks needs --agent with one of ${HOOK_SNIPPET_AGENTS.join(", ")}${agent === "pi" ? " (pi runs sysprompt as a package: its on-touch needs no hook)" : ""}`,
    );
  }
  const self = io.self ?? resolve(io.cwd, process.argv[1] ?? "sysprompt");
  // npm runs the command through a link (node_modules/.bin, the global bin folder): the
  // plugin file is found beside what the link leads to.
  const node = io.node ?? (await hookNode(io));
  if (node === undefined) {
    throw new UsageError(
      `export --hooks: the node running this sysprompt is the project's own (${escapeInline(process.execPath)}), and there is no other node on an absolute PATH entry outside the project for the hook to name; run it with a node of yours`,
    );
  }
  // `--untrusted`: a hook that treats every project as untrusted, as the render was (rev107a F1).
  const trusted = flags.untrusted !== true;
  const installed = await realpath(self).catch(() => self);
  const snippet = hookSnippet(agent, self, node, installed, trusted, {
    env: io.env,
    home: io.home ?? homeFolder(),
  });
  // The file the agent will run, by the PATH search's rule as the node is (review rev77d F1: a
  // sysprompt in a 0777 folder, or another user's, was named, and that user's code ran as you).
  const shared = await replaceableBinary(snippet.runs);
  if (shared !== undefined) {
    throw new RefusedError(
      `export --hooks: the hook would run ${escapeInline(snippet.runs)} as you, and another user could put his own code there (${escapeInline(shared)}); install sysprompt in folders of yours or the system's (npm install -g sysprompt) and print the hook with that one`,
    );
  }
  io.stderr(
    `sysprompt: for ${agent}, add this to ${snippet.where}:\nsysprompt: ${snippet.mode}\nsysprompt: ${snippet.trust}\n`,
  );
  if (!trusted) {
    const note = await dotfilesHomeNote(agent, io.env, io.home ?? homeFolder());
    if (note !== undefined) io.stderr(`sysprompt: ${note}\n`);
  }
  if (await insideProject(self, io)) {
    io.stderr(
      `sysprompt: warning: this sysprompt is installed inside the project (${escapeInline(self)}): in your user-wide settings the hook would run, in every project, whatever this project puts at that path; add it to this project's settings only, or install sysprompt for yourself (npm install -g sysprompt) and print the hook with that one\n`,
    );
  }
  if (await inNpxCache(self)) {
    io.stderr(
      `sysprompt: warning: this sysprompt runs from npm's npx cache (${escapeInline(self)}): the next \`npx sysprompt\` may replace it there, with what the registry of that run's .npmrc gives (a project's, when run in a project's folder), and the hook would run that in every project; install sysprompt for yourself (npm install -g sysprompt) and print the hook with that one\n`,
    );
  }
  io.stdout(snippet.text);
  return EXIT_OK;
}
