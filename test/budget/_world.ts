import type { BudgetOptions } from "../../src/budget/fit.js";
import { renderWithinBudget } from "../../src/budget/fit.js";
import type { PromptData } from "../../src/data.js";
import { createEngine } from "../../src/engine/index.js";
import type { TreeLine } from "../../src/gather/tree/_tree-layout.js";
import { defaultMeta } from "../../src/sections/meta.js";
import type { RenderInput } from "../../src/sections/render.js";
import type { SectionMeta, SectionTemplate } from "../../src/sections/types.js";
import type { ShrinkSpec } from "../../src/types.js";

/**
 * A small prompt for the budget's pure half: untagged sections, so a
 * section's text is its body, and a counter of one token per non-blank line,
 * so budgets can be worked out by hand (the separators between sections count
 * nothing).
 */
export const countLines = (text: string) => text.split("\n").filter((l) => l.trim() !== "").length;

export const engine = createEngine();

export function template(
  name: string,
  body: string,
  order: number,
  shrink: ShrinkSpec | null = null,
): SectionTemplate {
  const meta: SectionMeta = { ...defaultMeta(name), order, tag: false, shrink };
  return { name, meta, body, bodyLine: 1, source: { layer: "builtin", path: `/b/${name}.md` } };
}

/** Each line with its depth: two spaces a level. */
export function treeLines(...texts: string[]): TreeLine[] {
  return texts.map((text) => ({ depth: (text.length - text.trimStart().length) / 2, text }));
}

/** 12 lines: src has the most entries (5), and its oldest, sub/, goes one level deeper. */
export const TREE = treeLines(
  "project/",
  "  README",
  "  docs/",
  "    g",
  "  src/",
  "    a",
  "    b",
  "    c",
  "    d",
  "    sub/",
  "      x",
  "      y",
);

const long = (what: string) =>
  `${what}: ${"a line long enough to be worth more than the marker that would replace it. ".repeat(2).trim()}`;

export const CONTEXT_FILES = [
  {
    path: "/home/u/.pi/agent/AGENTS.md",
    content: `${long("agent")}\nsecond\nthird`,
    origin: "user" as const,
  },
  { path: "/AGENTS.md", content: `${long("root")}\nsecond\nthird`, origin: "project" as const },
  {
    path: "/work/AGENTS.md",
    content: `${long("work")}\nsecond\nthird`,
    origin: "project" as const,
  },
  {
    path: "/work/app/AGENTS.md",
    content: `${long("app")}\nsecond\nthird`,
    origin: "project" as const,
  },
  {
    path: "/work/lib/AGENTS.md",
    content: `${long("lib")}\nsecond\nthird`,
    origin: "project" as const,
  },
  // Shorter than the marker: cutting it would save nothing, so it stays.
  { path: "/work/app/src/AGENTS.md", content: "Short.", origin: "project" as const },
];

export const DATA: PromptData = {
  agentName: "A",
  cwd: "/work/app",
  date: "2026-01-15",
  model: null,
  tools: [],
  toolSnippets: [],
  rules: ["R1", "R2"],
  guidelines: [],
  environment: [],
  contextFiles: CONTEXT_FILES,
  alwaysRules: [],
  onDemandRules: [],
  agentsMd: ["b/c/AGENTS.md", "a/AGENTS.md", "d/e/f/AGENTS.md", "z/AGENTS.md"],
  rootAgentsMd: [],
  agentsMdTruncated: false,
  agentsMdLeftOut: 0,
  agentsMdOnTouch: false,
  agentLoads: [],
  workspaceTree: { rendered: TREE.map((l) => l.text).join("\n"), truncated: false },
  rootTrees: [],
  roots: [],
  // The repository's: fitting cuts them with the repository's context files, before the user's own file.
  skills: [
    { name: "pdf", description: "Reads PDFs.", location: "/s/pdf/SKILL.md", origin: "project" },
    { name: "csv", description: "Reads CSVs.", location: "/s/csv/SKILL.md", origin: "project" },
  ],
  skillsTool: "read",
  appendPrompt: "",
  customPrompt: null,
  docs: null,
  git: null,
  vars: {},
};

export const SHRINK = {
  tree: { priority: 10, steps: ["tree-lines", "tree-depth"] },
  agents: { priority: 20, steps: ["agents-md"] },
  skills: { priority: 30, steps: ["skill-descriptions", "skill-list"] },
  context: { priority: 40, steps: ["context-files"] },
} satisfies Record<string, ShrinkSpec>;

/** The builtin sections' shape in miniature, with the builtin priorities. */
export function templates(shrink: Partial<Record<keyof typeof SHRINK, ShrinkSpec | null>> = {}) {
  const pick = (k: keyof typeof SHRINK) => (k in shrink ? (shrink[k] ?? null) : SHRINK[k]);
  return [
    template("rules", "{{#list rules}}{{this}}{{/list}}", 30),
    template(
      "project_context",
      "{{#list contextFiles join='\\n'}}## {{path}}\n{{content}}{{/list}}",
      70,
      pick("context"),
    ),
    template("dir_context", "{{#list agentsMd prefix='- '}}{{this}}{{/list}}", 80, pick("agents")),
    template(
      "workspace_tree",
      "{{#if workspaceTree}}{{workspaceTree.rendered}}{{/if}}",
      90,
      pick("tree"),
    ),
    template(
      "skills",
      "{{#list skills}}{{name}}{{#if description}}: {{description}}{{/if}} ({{location}}){{/list}}",
      110,
      pick("skills"),
    ),
  ];
}

export function shrinkTo(
  maxTokens: number,
  input: Partial<RenderInput> = {},
  options: Partial<BudgetOptions> = {},
) {
  return renderWithinBudget({ templates: templates(), data: DATA, ...input }, engine, {
    maxTokens,
    treeLines: TREE,
    countTokens: countLines,
    ...options,
  });
}

/** The text of one section of a result. */
export const textOf = (out: { sections: { name: string; text: string }[] }, name: string) =>
  out.sections.find((s) => s.name === name)?.text;
