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
