// Written by `node dist/src/build/write-builtin-element-names.js` (src/build/builtin-element-names.ts)
// from prompts/: do not edit. test/misc/builtin-element-names.test.ts checks that it is current.

/**
 * The element names the builtin prompt prints (its sections' tags and every
 * element its templates open, close or write with `{{#xml}}`), held in every
 * repository text (`repositoryNames`, src/_prompt-text.ts) even where no
 * render, session or hook named the prompt's elements (a direct
 * `loadContextForPaths` with no `wrappers`: review rev91a F1).
 */
export const BUILTIN_ELEMENTS: readonly string[] = [
  "addendum",
  "available_skills",
  "cwd",
  "date",
  "description",
  "dir_context",
  "docs",
  "environment",
  "git",
  "location",
  "name",
  "project_rules",
  "rule",
  "rules",
  "skill",
  "skills",
  "tools",
  "workspace_roots",
  "workspace_tree",
];
