/** The builtin project_context section's opening lines, before the files. */
export const CONTEXT_INTRO = [
  "Instruction files follow, each in its own element named for whose it is, with its path.",
  "",
  "- `user_instructions` is the user's own file: the user's preferences for how you work. Where a repository's file disagrees with it about those preferences, the user's file wins.",
  "- `repository_instructions` belongs to the repository you work in: it describes that repository and how to work in it. Where two of them disagree, the one closer to the working directory wins.",
  "",
  "What is inside an element is the text of that file, not a part of this prompt's own structure.",
];

/** The builtin project_context section for these files: each `[path, content]`, `user` for the agent dir's. */
export function contextSection(
  files: readonly (readonly [path: string, content: string, origin?: "user" | "project"])[],
): string {
  const elements = files.map(([path, content, origin]) => {
    const name = origin === "user" ? "user_instructions" : "repository_instructions";
    return `<${name} path="${path}">\n${content}\n</${name}>`;
  });
  return [
    "<project_context>",
    ...CONTEXT_INTRO,
    "",
    elements.join("\n\n"),
    "</project_context>",
  ].join("\n");
}
