import type { EnvironmentEntry } from "../data.js";
import type { ResolvedFile } from "../locate/load-layer.js";
import type { Skill } from "../skills/index.js";
import type { Diagnostic } from "../types.js";
import type { ContextFilesOptions } from "./context/context-files.js";
import type { Machine } from "./environment/index.js";

/**
 * The part of a render's options that the gathering steps read, checked and
 * with every default applied: `NormalizedOptions` extends it with what only
 * locating and rendering read.
 */
export interface GatherOptions {
  /** The working folder's real path: its project and their rules are found from it. */
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  agentDir: string;
  /** The caller named `agentDir`: cache files then go there, not to the user's cache folder. */
  agentDirGiven: boolean;
  /** Why the agent dir is not read (`agent-dir-shared`: another user could fill it), said by the user layer's step. */
  agentDirRefused?: Diagnostic | undefined;
  /** The project layer folder's name (`.pi`) and its absolute path. */
  projectDirName: string;
  projectDir: string;
  builtinDir: string;
  trusted: boolean;
  tools: string[];
  /** The layer files the caller resolved itself, not to be read. */
  resolvedFiles: ResolvedFile[];
  /** The `skills` option, as skills; null when skills are to be discovered. */
  skills: Skill[] | null;
  /** `skillPaths`; null when not given. */
  skillPaths: readonly string[] | null;
  /** Extra workspace roots: absolute, existing folders, each once. */
  roots: string[];
  /** `allowGitDirs`: absolute, existing folders, each once. */
  allowGitDirs: string[];
  /** `ceilingDir`, resolved; null when not given. */
  ceilingDir: string | null;
  maxContextBytes: number;
  /** The rule sources to read, checked (`ruleSources`, or the default ones). */
  ruleSources: string[];
  noContextFiles: boolean;
  /** `machine`; null for this one. */
  machine: Machine | null;
  /** `environment`; null for detection. */
  environment: readonly EnvironmentEntry[] | null;
  git: boolean;
  workspaceTree: boolean;
  /** `treeDepth`; null for the tree's default. */
  treeDepth: number | null;
  /** `treeMtime` as a Date, or null for the entries' own mtimes. */
  treeMtime: Date | null;
}

/** What the gathering steps are built from: the render's options, resolved. */
export interface GatherInputs {
  /** The options, normalised, with the agent preset's tools and rule sources in place. */
  opts: GatherOptions;
  /** For the context step: the files the preset's agent loads itself; undefined for none. */
  agentLoads: ContextFilesOptions["agentLoads"];
  /** For the tree: the nested context files the preset's agent loads itself. */
  nestedContextFiles: readonly string[];
}
