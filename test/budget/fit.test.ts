import { describe, expect, it } from "vitest";
import { CONTEXT_FILE_MARKER } from "../../src/budget/steps.js";
import { renderSections } from "../../src/sections/render.js";
import {
  CONTEXT_FILES,
  DATA,
  engine,
  SHRINK,
  shrinkTo,
  template,
  templates,
  textOf,
} from "./_world.js";

// Budgets here are in lines (see _world.ts): the whole prompt starts at 42 —
// rules 2, project_context 22, dir_context 4, workspace_tree 12, skills 2.

const TREE_MARKER = (n: number) =>
  `… at most ${n} ${n === 1 ? "entry" : "entries"} per folder shown, to fit the token budget`;
const DEPTH_MARKER = (n: number) =>
  `… only ${n} ${n === 1 ? "level" : "levels"} shown, to fit the token budget`;
const cutWarning = (
  budget: number,
  section: string,
  step: string,
  detail: string,
  saved: number,
) => ({
  level: "warning",
  code: "budget-cut",
  message: `section "${section}" shrunk to fit the token budget of ${budget} (${step}): ${detail}; about ${saved} tokens saved`,
  path: `/b/${section}.md`,
});

describe("renderWithinBudget", () => {
  it("within budget: the same text as without one, no cut, no diagnostic", () => {
    const out = shrinkTo(42);
    expect(out.text).toBe(renderSections({ templates: templates(), data: DATA }, engine).text);
    expect(out.diagnostics).toEqual([]);
    expect(out.budget).toEqual({
      maxTokens: 42,
      tokenizer: "o200k_base",
      initialTokens: 42,
      tokens: 42,
      fits: true,
      cuts: [],
      skipped: [],
    });
  });

  it("tree-lines: each folder keeps its newest, '… K more' and its oldest; only as few entries as needed", () => {
    const out = shrinkTo(41);
    expect(textOf(out, "workspace_tree")).toBe(
      [
        "project/",
        "  README",
        "  … 1 more",
        "  src/",
        "    a",
        "    … 3 more",
        "    sub/",
        "      x",
        "      y",
        TREE_MARKER(2),
      ].join("\n"),
    );
    expect(out.budget).toEqual({
      maxTokens: 41,
      tokenizer: "o200k_base",
      initialTokens: 42,
      tokens: 40,
      fits: true,
      cuts: [
        {
          section: "workspace_tree",
          step: "tree-lines",
          detail: "the workspace tree lists at most 2 entries per folder",
          saved: 2,
          complete: false,
        },
      ],
      skipped: [],
    });
    expect(out.diagnostics).toEqual([
      cutWarning(
        41,
        "workspace_tree",
        "tree-lines",
        "the workspace tree lists at most 2 entries per folder",
        2,
      ),
    ]);
    // Nothing else changed.
    expect(textOf(out, "dir_context")).toBe(
      "- b/c/AGENTS.md\n- a/AGENTS.md\n- d/e/f/AGENTS.md\n- z/AGENTS.md",
    );
  });

  it("tree-depth, after tree-lines went all the way: the deepest levels go", () => {
    const out = shrinkTo(37);
    expect(textOf(out, "workspace_tree")).toBe(
      [
        "project/",
        "  … 2 more",
        "  src/",
        "    … 4 more",
        "    sub/",
        TREE_MARKER(1),
        DEPTH_MARKER(2),
      ].join("\n"),
    );
    expect(out.budget?.cuts).toEqual([
      {
        section: "workspace_tree",
        step: "tree-lines",
        detail: "the workspace tree lists at most 1 entry per folder",
        saved: 4,
        complete: true,
      },
      {
        section: "workspace_tree",
        step: "tree-depth",
        detail: "the workspace tree shows 2 levels",
        saved: 1,
        complete: false,
      },
    ]);
    expect(out.budget?.tokens).toBe(37);
  });

  it("tree-depth on its own: the top level, whatever the folders hold", () => {
    const out = shrinkTo(0, {
      templates: templates({ tree: { priority: 10, steps: ["tree-depth"] } }),
    });
    expect(textOf(out, "workspace_tree")).toBe(
      ["project/", "  README", "  docs/", "  src/", DEPTH_MARKER(1)].join("\n"),
    );
  });

  it("agents-md: the shallowest paths stay (then by name), in their order, and '… K more' says the rest", () => {
    const out = shrinkTo(33);
    expect(textOf(out, "dir_context")).toBe(
      "- a/AGENTS.md\n- … 3 more, left out to fit the token budget",
    );
    expect(out.budget?.cuts.at(-1)).toEqual({
      section: "dir_context",
      step: "agents-md",
      detail: "1 of 4 AGENTS.md paths listed",
      saved: 2,
      complete: false,
    });
    expect(out.budget?.tokens).toBe(33);
  });

  it("skill-descriptions, then skill-list: names and locations with a note, then the note alone", () => {
    const long = DATA.skills.map((k) => ({ ...k, description: "Reads files.\nOf that kind.\n" }));
    const descriptions = shrinkTo(0, {
      templates: templates({ skills: { priority: 30, steps: ["skill-descriptions"] } }),
      data: { ...DATA, skills: long },
    });
    expect(textOf(descriptions, "skills")).toBe(
      [
        "pdf (/s/pdf/SKILL.md)",
        "csv (/s/csv/SKILL.md)",
        "",
        "Skill descriptions are left out to fit the token budget: open a skill's file to see what it is for.",
      ].join("\n"),
    );
    const out = shrinkTo(31);
    expect(textOf(out, "skills")).toBe(
      "2 skills are installed but not listed here, to fit the token budget.",
    );
    expect(out.budget?.cuts.at(-1)).toEqual({
      section: "skills",
      step: "skill-list",
      detail: "the list of 2 skills left out",
      saved: 1,
      complete: true,
    });
  });

  it("a step that would make the prompt longer is left out, and accounted for", () => {
    // One line per skill either way, and the note is one more: the line counter sees a loss.
    const out = shrinkTo(0, {
      templates: templates({ skills: { priority: 30, steps: ["skill-descriptions"] } }),
    });
    expect(textOf(out, "skills")).toBe(
      "pdf: Reads PDFs. (/s/pdf/SKILL.md)\ncsv: Reads CSVs. (/s/csv/SKILL.md)",
    );
    expect(out.budget?.cuts.map((c) => c.step)).not.toContain("skill-descriptions");
    expect(out.budget?.skipped).toEqual([
      {
        section: "skills",
        step: "skill-descriptions",
        detail: "skills listed by name and location only (2 skills)",
        added: 1,
      },
    ]);
    expect(out.diagnostics.map((d) => d.message).join("\n")).not.toContain("skill-descriptions");
  });

  it("context-files: the repository's before the user's, the farthest from the working directory first (ties: loaded first), each leaving its path and a marker", () => {
    const out = shrinkTo(23);
    const [agent, root, work, app, lib, short] = CONTEXT_FILES.map((f) => f.path);
    expect(textOf(out, "project_context")).toBe(
      [
        `## ${agent}`,
        CONTEXT_FILES[0]?.content,
        `## ${root}`,
        CONTEXT_FILE_MARKER,
        `## ${work}`,
        CONTEXT_FILE_MARKER,
        `## ${app}`,
        CONTEXT_FILE_MARKER,
        `## ${lib}`,
        CONTEXT_FILE_MARKER,
        `## ${short}`,
        "Short.",
      ].join("\n"),
    );
    expect(out.budget?.cuts.at(-1)).toEqual({
      section: "project_context",
      step: "context-files",
      detail: `4 of 6 context files left out (${root}, ${lib}, ${work}, ${app})`,
      saved: 8,
      complete: false,
    });
    expect(out.budget?.tokens).toBe(23);
  });

  it("steps go in priority order, each as far as it goes; too small a budget renders the most-shrunk prompt with an error", () => {
    const out = shrinkTo(0);
    expect(out.budget?.cuts.map((c) => [c.section, c.step, c.complete])).toEqual([
      ["workspace_tree", "tree-lines", true],
      ["workspace_tree", "tree-depth", true],
      ["dir_context", "agents-md", true],
      // skill-descriptions would add a line here: it is in \`skipped\`, not taken.
      ["skills", "skill-list", true],
      // The repository's context files, texts then elements; the user's own stays: cutting it
      // too would not make the prompt fit a budget of 0 (rev50b F1).
      ["project_context", "context-files", false],
    ]);
    expect(out.text).toBe(
      [
        "R1\nR2",
        [`## ${CONTEXT_FILES[0]?.path}`, CONTEXT_FILES[0]?.content].join("\n"),
        "5 instruction files of the repository are left out to fit the token budget; they lie in the folders between the project root and the working directory, or below it.",
        "- … 4 more, left out to fit the token budget",
        ["project/", "  … 2 more", "  src/", TREE_MARKER(1), DEPTH_MARKER(1)].join("\n"),
        "2 skills are installed but not listed here, to fit the token budget.",
      ].join("\n\n"),
    );
    expect(out.budget).toMatchObject({ maxTokens: 0, initialTokens: 42, tokens: 14, fits: false });
    expect(out.diagnostics.at(-1)).toEqual({
      level: "error",
      code: "budget-exceeded",
      message:
        "the prompt is about 14 tokens (o200k estimate), over the budget of 0 even with every shrink step applied to the repository's text (your own text is kept: cutting it too would not make the prompt fit); sections without shrink steps are never cut (the largest: rules ~2); raise the budget, or shorten or switch off a section",
    });
  });

  it("a priority decides the order: context files first when project_context has the lowest", () => {
    const out = shrinkTo(38, {
      templates: templates({ context: { priority: 1, steps: ["context-files"] } }),
    });
    expect(out.budget?.cuts).toEqual([
      {
        section: "project_context",
        step: "context-files",
        detail: "2 of 6 context files left out (/AGENTS.md, /work/lib/AGENTS.md)",
        saved: 4,
        complete: false,
      },
    ]);
  });

  it("a section without shrink is never touched, even when it shows the same data as one that shrinks", () => {
    const withCopy = [
      ...templates({ tree: null, agents: null, skills: null }),
      template("copy", "{{#list contextFiles}}{{content}}{{/list}}", 200),
    ];
    const before = renderSections({ templates: withCopy, data: DATA }, engine);
    const out = shrinkTo(0, { templates: withCopy });
    for (const name of ["rules", "dir_context", "workspace_tree", "skills", "copy"]) {
      expect([name, textOf(out, name)]).toEqual([name, textOf(before, name)]);
    }
    // The repository's files; the user's own is kept, as cutting it would not fit a budget of 0.
    expect(out.budget?.cuts.map((c) => c.step)).toEqual(["context-files"]);
  });

  it("the tree's lines are read from its text when they are not given", () => {
    expect(shrinkTo(41, {}, { treeLines: undefined }).text).toBe(shrinkTo(41).text);
  });

  it("a step with nothing to cut is skipped without a word", () => {
    const out = shrinkTo(0, { data: { ...DATA, workspaceTree: null, skills: [] } });
    expect(out.budget?.cuts.map((c) => c.step)).toEqual(["agents-md", "context-files"]);
  });

  it("a section that a template failure hands to a lower version shrinks by that version's steps", () => {
    const lower = {
      ...template("workspace_tree", "{{workspaceTree.rendered}}", 90, SHRINK.tree),
      source: { layer: "builtin" as const, path: "/lower/workspace_tree.md" },
    };
    const broken = { ...template("workspace_tree", "{{#if}}", 90, null), lower };
    const list = templates().map((t) => (t.name === "workspace_tree" ? broken : t));
    const out = shrinkTo(41, { templates: list });
    expect(out.budget?.cuts.map((c) => c.step)).toEqual(["tree-lines"]);
  });
});
