/** The instruction file the walk collects from folders below the root. */
export const AGENTS_FILE = "AGENTS.md";

/**
 * The names a nested folder is searched for when none are given, in the
 * precedence on-touch delivery uses (src/gather/context/on-touch.ts): the
 * context file names, then Gemini CLI's default name. Kept here, not
 * imported, so that the tree does not load the context step.
 */
export const NESTED_CONTEXT_NAMES: readonly string[] = [
  "AGENTS.override.md",
  AGENTS_FILE,
  "AGENTS.MD",
  "CLAUDE.md",
  "CLAUDE.MD",
  "GEMINI.md",
];
