import type { PromptData } from "../../data.js";
import type { CustomPrompt } from "../../sections/render.js";

/** One set of synthetic data to render every section with. */
export interface DataCase {
  /** What is special about it, for diagnostics: `no tools, skills, custom base prompt, …`. */
  label: string;
  data: PromptData;
  customPrompt: CustomPrompt | null;
}

interface Choice<T> {
  label: string;
  value: T;
}

const ALL_TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"];

const TOOLS: Choice<
  Pick<PromptData, "tools" | "toolSnippets" | "rules" | "guidelines" | "skillsTool">
>[] = [
  {
    label: "no tools",
    value: { tools: [], toolSnippets: [], rules: [], guidelines: [], skillsTool: null },
  },
  {
    // The shell alone: skills are loaded through bash, and no tool has a snippet.
    label: "bash only",
    value: {
      tools: ["bash"],
      toolSnippets: [],
      rules: ["Use the shell."],
      guidelines: ["Use the shell."],
      skillsTool: "bash",
    },
  },
  {
    label: "all tools",
    value: {
      tools: ALL_TOOLS,
      toolSnippets: ALL_TOOLS.map((name) => ({ name, description: `What ${name} does.` })),
      rules: ["Read before you edit.", "Run the tests."],
      guidelines: ["Read before you edit."],
      skillsTool: "read",
    },
  },
];

const SKILLS: Choice<PromptData["skills"]>[] = [
  { label: "no skills", value: [] },
  {
    label: "skills",
    value: [
      {
        name: "pdf",
        description: "Read PDF files.",
        location: "/home/u/.pi/skills/pdf/SKILL.md",
        origin: "user",
      },
      {
        name: "a&b",
        description: 'Quotes "and" <tags>.',
        location: "/p/.pi/skills/ab/SKILL.md",
        origin: "project",
      },
    ],
  },
];

/** The workspace: its tree, roots and deeper AGENTS.md files, and its git state, all off or all on. */
const TREE: Choice<
  Pick<
    PromptData,
    | "workspaceTree"
    | "rootTrees"
    | "roots"
    | "agentsMd"
    | "rootAgentsMd"
    | "agentsMdTruncated"
    | "agentsMdLeftOut"
    | "git"
  >
>[] = [
  {
    label: "no tree",
    value: {
      workspaceTree: null,
      rootTrees: [],
      roots: [],
      agentsMd: [],
      rootAgentsMd: [],
      agentsMdTruncated: false,
      agentsMdLeftOut: 0,
      git: null,
    },
  },
  {
    label: "tree",
    value: {
      workspaceTree: { rendered: "src/\n  index.ts\nREADME.md", truncated: true },
      rootTrees: [{ path: "/work/other", rendered: "/work/other/\n  lib.ts", truncated: false }],
      roots: ["/work/other"],
      agentsMd: ["packages/api/AGENTS.md"],
      rootAgentsMd: ["/work/other/sub/AGENTS.md"],
      agentsMdTruncated: true,
      agentsMdLeftOut: 2,
      git: {
        branch: "main",
        head: "0123456789ab",
        upstream: { name: "origin/main", ahead: 2, behind: 0, gone: false },
        staged: 1,
        unstaged: 0,
        untracked: 3,
        conflicted: 0,
        truncated: true,
        commits: ["Fix the parser", "Add a test"],
      },
    },
  },
];

/**
 * Context files, and with them every other optional text (model, docs,
 * appended prompt) and how the deeper AGENTS.md files reach the model (read
 * by it, or delivered on touch): with the tree, both wordings render.
 */
const CONTEXT: Choice<
  Pick<
    PromptData,
    | "contextFiles"
    | "alwaysRules"
    | "onDemandRules"
    | "environment"
    | "model"
    | "docs"
    | "appendPrompt"
    | "agentsMdOnTouch"
    | "agentLoads"
  >
>[] = [
  {
    label: "no context files",
    value: {
      contextFiles: [],
      alwaysRules: [],
      onDemandRules: [],
      environment: [],
      model: null,
      docs: null,
      appendPrompt: "",
      agentsMdOnTouch: false,
      agentLoads: [],
    },
  },
  {
    label: "several context files",
    value: {
      contextFiles: [
        { path: "/home/u/.pi/agent/AGENTS.md", content: "Be brief.", origin: "user" },
        {
          path: "/work/project/AGENTS.md",
          content: "Use pnpm.\n\n```sh\npnpm test\n```",
          origin: "project",
        },
        {
          path: "/work/project/CLAUDE.md",
          content: "A literal {{x}} stays as it is.",
          origin: "project",
        },
      ],
      alwaysRules: [
        {
          name: "style",
          source: "cursor",
          path: "/work/project/.cursor/rules/style.mdc",
          content: "Two spaces.",
          origin: "project",
        },
      ],
      onDemandRules: [
        {
          name: "react",
          source: "cursor",
          path: "/work/project/.cursor/rules/react.mdc",
          activation: "glob",
          globs: ["*.tsx", "*.jsx"],
          globsText: "*.tsx, *.jsx",
          description: "React components.",
          origin: "project",
        },
        {
          name: "db",
          source: "kiro",
          path: "/work/project/.kiro/steering/db.md",
          activation: "model",
          globs: [],
          globsText: "",
          description: null,
          origin: "user",
        },
      ],
      environment: [
        { label: "Operating system", value: "Linux" },
        { label: "Architecture", value: "x64" },
      ],
      model: "example-model",
      docs: "Documentation: https://example.com/docs",
      appendPrompt: "Appended text.",
      agentsMdOnTouch: true,
      agentLoads: ["CLAUDE.md"],
    },
  },
];

const LITERAL_CUSTOM: CustomPrompt = {
  text: "A custom base prompt.",
  template: false,
  source: { layer: "option" },
};

/**
 * Every combination of: no tools / bash only / all tools, no skills / skills,
 * the builtin base prompt / a literal custom one / each SYSTEM_TEMPLATE.md
 * given, no tree / tree (with roots and deeper AGENTS.md files), and no /
 * several context files (with model, docs and an appended prompt); the
 * declared variables in every case. Pure and
 * fixed, so a data-dependent error shows the same way on every machine.
 */
export function dataMatrix(
  systemTemplates: readonly CustomPrompt[],
  /** The variables the config files declare, with their values. */
  vars: Readonly<Record<string, string>> = {},
): DataCase[] {
  const customs: Choice<CustomPrompt | null>[] = [
    { label: "builtin base prompt", value: null },
    { label: "custom base prompt", value: LITERAL_CUSTOM },
    ...systemTemplates.map((t) => ({
      label: `base prompt from ${t.source.path ?? "SYSTEM_TEMPLATE.md"}`,
      value: t,
    })),
  ];
  const cases: DataCase[] = [];
  for (const tools of TOOLS)
    for (const skills of SKILLS)
      for (const custom of customs)
        for (const tree of TREE)
          for (const context of CONTEXT) {
            cases.push({
              label: [tools, skills, custom, tree, context].map((c) => c.label).join(", "),
              customPrompt: custom.value,
              data: {
                agentName: "a coding agent",
                cwd: "/work/project",
                date: "2026-01-15",
                ...tools.value,
                ...tree.value,
                ...context.value,
                // Skills reach the prompt only when a tool can open them, as in a real render.
                skills: tools.value.skillsTool ? skills.value : [],
                customPrompt: custom.value?.text ?? null,
                vars: { ...vars },
              },
            });
          }
  return cases;
}
