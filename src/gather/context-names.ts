// The instruction file names, shared by the context step, on-touch delivery,
// the tree's nested list and watch. A module of its own, so that the tree and
// watch do not load the context step to read them.

/** In each folder the first regular file among these is its context file. */
export const CONTEXT_FILE_NAMES: readonly string[] = [
  "AGENTS.override.md",
  "AGENTS.md",
  "AGENTS.MD",
  "CLAUDE.md",
  "CLAUDE.MD",
];

/**
 * The names a nested folder is searched for when none are given, in the
 * precedence on-touch delivery uses: the context file names, then Gemini
 * CLI's default name.
 */
export const NESTED_CONTEXT_NAMES: readonly string[] = [...CONTEXT_FILE_NAMES, "GEMINI.md"];

/**
 * The names a nested folder is searched for, given `sessionNames`, the names
 * in force in the working folder's project (the defaults, or those its
 * `.gemini/settings.json` sets): those inside that project, only the
 * defaults ({@link NESTED_CONTEXT_NAMES}) inside a repository of its own
 * below it (`inOtherRepository`: a clone made in a framework's `plugins/`,
 * a submodule), whose folders a hostile checkout's settings never name a
 * file of (decided, review rev101a F1: `["config.py"]` gave your nested
 * plugin's `config.py` to the model on touch, and the tree listed it). On
 * touch and in the tree's `dir_context` alike.
 */
export function folderContextNames(
  sessionNames: readonly string[],
  inOtherRepository: boolean,
): readonly string[] {
  return inOtherRepository ? NESTED_CONTEXT_NAMES : sessionNames;
}

/**
 * Every name a walk looks a folder up for (`sessionNames`, then the defaults
 * they left out), so one listing serves a folder of either kind
 * ({@link folderContextNames}).
 */
export function lookedUpContextNames(sessionNames: readonly string[]): readonly string[] {
  return [...new Set([...sessionNames, ...NESTED_CONTEXT_NAMES])];
}
