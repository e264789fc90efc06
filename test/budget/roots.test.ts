import { describe, expect, it } from "vitest";
import { renderTree, type TreeModel } from "../../src/budget/_tree.js";
import { initialState, patchFor, STEPS } from "../../src/budget/steps.js";
import type { PromptData } from "../../src/data.js";
import { renderSections } from "../../src/sections/render.js";
import {
  countLines,
  DATA,
  engine,
  SHRINK,
  shrinkTo,
  TREE,
  template,
  textOf,
  treeLines,
} from "./_world.js";

// Budgets here are in lines (see _world.ts). The trees: cwd's TREE (12 lines,
// at most 5 entries a folder, 3 levels), root a (11 lines, one folder of 10
// files) and root b (11 lines: lib/ with 8 files, then z).

const ROOT_A = treeLines("/r/a/", ...Array.from({ length: 10 }, (_, i) => `  f${i}`));
const ROOT_B = treeLines(
  "/r/b/",
  "  lib/",
  ...Array.from({ length: 8 }, (_, i) => `    l${i}`),
  "  z",
);
const text = (lines: { text: string }[]) => lines.map((l) => l.text).join("\n");

const WITH_ROOTS: PromptData = {
  ...DATA,
  roots: ["/r/a", "/r/b"],
  rootTrees: [
    { path: "/r/a", rendered: text(ROOT_A), truncated: false },
    { path: "/r/b", rendered: text(ROOT_B), truncated: false },
  ],
};

/** The builtin workspace_tree's shape: cwd's tree, then each root's. */
const TREES = template(
  "workspace_tree",
  "{{#if workspaceTree}}{{workspaceTree.rendered}}\n{{#list rootTrees}}{{rendered}}{{/list}}{{/if}}",
  90,
  SHRINK.tree,
);
const TEMPLATES = [template("rules", "{{#list rules}}{{this}}{{/list}}", 30), TREES];

const shrink = (maxTokens: number, data: PromptData = WITH_ROOTS) =>
  shrinkTo(maxTokens, { templates: TEMPLATES, data }, { rootTreeLines: [ROOT_A, ROOT_B] });

const TREE_MARKER = (n: number) =>
  `… at most ${n} ${n === 1 ? "entry" : "entries"} per folder shown, to fit the token budget`;
const DEPTH_MARKER = (n: number) =>
  `… only ${n} ${n === 1 ? "level" : "levels"} shown, to fit the token budget`;

/** The section with every tree at one entry a folder (a budget of 22). */
const ONE_ENTRY = [
  ...["project/", "  … 2 more", "  src/", "    … 4 more", "    sub/", "      … 1 more"],
  "      y",
  TREE_MARKER(1),
  ...["/r/a/", "  … 9 more", "  f9"],
  TREE_MARKER(1),
  ...["/r/b/", "  … 1 more", "  z"],
  TREE_MARKER(1),
].join("\n");

describe("the tree steps with extra workspace roots", () => {
  it("starts at 36 lines: rules 2, the trees 12 + 11 + 11", () => {
    expect(
      countLines(renderSections({ templates: TEMPLATES, data: WITH_ROOTS }, engine).text),
    ).toBe(36);
  });

  it("tree-lines caps every tree at one number of entries a folder: a tree within it stays whole", () => {
    // 2 lines to save: at most 6 entries a folder cuts only the roots' trees.
    const out = shrink(34);
    expect(out.budget).toEqual({
      maxTokens: 34,
      tokenizer: "o200k_base",
      initialTokens: 36,
      tokens: 34,
      fits: true,
      cuts: [
        {
          section: "workspace_tree",
          step: "tree-lines",
          detail: "the workspace trees list at most 6 entries per folder (2 of 3 trees cut)",
          saved: 2,
          complete: false,
        },
      ],
      skipped: [],
    });
    expect(textOf(out, "workspace_tree")).toBe(
      [
        ...TREE.map((l) => l.text),
        "/r/a/",
        ...["  f0", "  f1", "  f2", "  f3", "  f4", "  … 4 more", "  f9"],
        TREE_MARKER(6),
        "/r/b/",
        "  lib/",
        ...["    l0", "    l1", "    l2", "    l3", "    l4", "    … 2 more", "    l7"],
        "  z",
        TREE_MARKER(6),
      ].join("\n"),
    );
  });

  it("a budget only all three trees shrinking reaches: cwd's tree alone could save 7 lines at most, 8 are needed", () => {
    const out = shrink(28);
    expect(out.budget.fits).toBe(true);
    expect(out.budget.cuts.map((c) => [c.step, c.detail, c.saved])).toEqual([
      ["tree-lines", "the workspace trees list at most 3 entries per folder (3 of 3 trees cut)", 8],
    ]);
    expect(textOf(out, "workspace_tree")).toBe(
      [
        ...["project/", "  README", "  docs/", "    g", "  src/", "    a", "    b"],
        ...["    … 2 more", "    sub/", "      x", "      y"],
        TREE_MARKER(3),
        ...["/r/a/", "  f0", "  f1", "  … 7 more", "  f9"],
        TREE_MARKER(3),
        ...["/r/b/", "  lib/", "    l0", "    l1", "    … 5 more", "    l7", "  z"],
        TREE_MARKER(3),
      ].join("\n"),
    );
    // cwd's tree alone, with the 22 lines of the roots' trees taken off the budget, does not fit.
    const cwdOnly = shrinkTo(28 - 22, { templates: TEMPLATES, data: DATA });
    expect(cwdOnly.budget.fits).toBe(false);
  });

  it("to one entry a folder, every tree with its own marker; the data says entries are left out", () => {
    const out = shrink(22);
    expect(out.budget.cuts.map((c) => [c.step, c.detail])).toEqual([
      ["tree-lines", "the workspace trees list at most 1 entry per folder (3 of 3 trees cut)"],
    ]);
    expect(textOf(out, "workspace_tree")).toBe(ONE_ENTRY);
  });

  it("only a root's tree cut: cwd's text stays, and workspaceTree.truncated and the root's truncated say entries are left out", () => {
    const state = STEPS["tree-lines"].apply(initialState(WITH_ROOTS, TREE, [ROOT_A, ROOT_B]), 4);
    const patch = patchFor(state, WITH_ROOTS).data ?? {};
    expect(patch.workspaceTree).toEqual({
      rendered: DATA.workspaceTree?.rendered,
      truncated: true,
    });
    expect(patch.rootTrees?.map((r) => [r.path, r.truncated])).toEqual([
      ["/r/a", true],
      ["/r/b", true],
    ]);
  });

  it("tree-depth takes every tree to one depth, the deepest first", () => {
    const state = initialState(WITH_ROOTS, TREE, [ROOT_A, ROOT_B]);
    // cwd's tree is 3 levels deep, root b's 2, root a's 1: two levels to give.
    const step = STEPS["tree-depth"];
    expect(step.levels(state)).toBe(2);
    expect([step.describe(state, 1), step.describe(state, 2)]).toEqual([
      "the workspace trees show 2 levels (1 of 3 trees cut)",
      "the workspace trees show 1 level (2 of 3 trees cut)",
    ]);
    const one = step.apply(state, 2);
    expect([one.treeMarkers, ...one.rootTrees.map((r) => r.markers)]).toEqual([
      [DEPTH_MARKER(1)],
      [],
      [DEPTH_MARKER(1)],
    ]);
    expect(renderTree(one.rootTrees[1]?.tree as TreeModel, one.rootTrees[1]?.markers)).toBe(
      ["/r/b/", "  lib/", "  z", DEPTH_MARKER(1)].join("\n"),
    );
  });

  it("the roots' lines are read from their text when they are not given, the same cut", () => {
    const given = shrink(22);
    const read = shrinkTo(22, { templates: TEMPLATES, data: WITH_ROOTS });
    expect(textOf(given, "workspace_tree")).toBe(ONE_ENTRY);
    expect(read.text).toBe(given.text);
  });

  it("without roots, the wording is the one tree's, as before", () => {
    const out = shrinkTo(13, { templates: TEMPLATES, data: DATA });
    expect(out.budget.cuts.map((c) => c.detail)).toEqual([
      "the workspace tree lists at most 2 entries per folder",
    ]);
  });

  it("a root list that does not match rootTrees one for one is not used: the roots are read from their text", () => {
    const mismatched = shrinkTo(
      22,
      { templates: TEMPLATES, data: WITH_ROOTS },
      { rootTreeLines: [ROOT_B] },
    );
    expect(textOf(mismatched, "workspace_tree")).toBe(ONE_ENTRY);
  });
});
