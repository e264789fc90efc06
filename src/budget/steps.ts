import type { AlwaysRule, ContextFile, OnDemandRule, PromptData, SkillEntry } from "../data.js";
import type { TreeLine } from "../gather/tree/_tree-layout.js";
import type { SectionPatch } from "../sections/render.js";
import {
  capDepth,
  capEntries,
  deepestLevel,
  linesFromText,
  parseTree,
  renderTree,
  type TreeModel,
  widestFolder,
} from "./_tree.js";
import type { ShrinkStepName } from "./types.js";

/**
 * What one section sees while it shrinks: the data the steps cut, and the
 * marker lines they leave. Every step returns a new state; nothing is changed
 * in place, so any level can be tried from the same state.
 */
export interface ShrinkState {
  tree: TreeModel | null;
  /** Marker lines the tree steps added, after the tree's own. */
  treeMarkers: string[];
  agentsMd: string[];
  skills: SkillEntry[];
  contextFiles: ContextFile[];
  alwaysRules: AlwaysRule[];
  onDemandRules: OnDemandRule[];
  /** Lines added at the end of the section (the skill steps' markers). */
  notes: string[];
  /** The working directory, to tell how far a context file is from it. */
  cwd: string;
}

/** A builtin step: a number of levels, each cutting more than the one before. */
export interface ShrinkStep {
  /** How many levels the step has on this state; 0 when it has nothing to cut. */
  levels(state: ShrinkState): number;
  /** The state cut at `level` (1 … levels). */
  apply(state: ShrinkState, level: number): ShrinkState;
  /** What the cut at `level` did, for the report and the warning. */
  describe(state: ShrinkState, level: number): string;
}

export function initialState(data: PromptData, treeLines?: readonly TreeLine[]): ShrinkState {
  const tree = data.workspaceTree
    ? parseTree(treeLines ?? linesFromText(data.workspaceTree.rendered))
    : null;
  return {
    tree,
    treeMarkers: [],
    agentsMd: data.agentsMd,
    skills: data.skills,
    contextFiles: data.contextFiles,
    alwaysRules: data.alwaysRules,
    onDemandRules: data.onDemandRules,
    notes: [],
    cwd: data.cwd,
  };
}

/** The section's data and notes for a state: only what the steps changed. */
export function patchFor(state: ShrinkState, data: PromptData): SectionPatch {
  const patch: Partial<PromptData> = {};
  if (state.tree && state.treeMarkers.length > 0) {
    patch.workspaceTree = { rendered: renderTree(state.tree, state.treeMarkers), truncated: true };
  }
  if (state.agentsMd !== data.agentsMd) patch.agentsMd = state.agentsMd;
  if (state.skills !== data.skills) patch.skills = state.skills;
  if (state.contextFiles !== data.contextFiles) patch.contextFiles = state.contextFiles;
  if (state.alwaysRules !== data.alwaysRules) patch.alwaysRules = state.alwaysRules;
  if (state.onDemandRules !== data.onDemandRules) patch.onDemandRules = state.onDemandRules;
  return { data: patch, notes: state.notes };
}

const BUDGET = "to fit the token budget";

/** What a cut context file's content becomes. */
export const CONTEXT_FILE_MARKER = `[This file's instructions are left out ${BUDGET}; read the file when they may matter for your task.]`;

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

const treeLines: ShrinkStep = {
  levels: (s) => (s.tree ? Math.max(0, widestFolder(s.tree.root) - 1) : 0),
  apply(s, level) {
    const tree = s.tree as TreeModel;
    const cap = widestFolder(tree.root) - level;
    return {
      ...s,
      tree: capEntries(tree, cap),
      treeMarkers: [
        ...s.treeMarkers,
        `… at most ${plural(cap, "entry", "entries")} per folder shown, ${BUDGET}`,
      ],
    };
  },
  describe: (s, level) =>
    `the workspace tree lists at most ${plural(widestFolder((s.tree as TreeModel).root) - level, "entry", "entries")} per folder`,
};

const treeDepth: ShrinkStep = {
  levels: (s) => (s.tree ? Math.max(0, deepestLevel(s.tree.root) - 1) : 0),
  apply(s, level) {
    const tree = s.tree as TreeModel;
    const depth = deepestLevel(tree.root) - level;
    return {
      ...s,
      tree: capDepth(tree, depth),
      treeMarkers: [...s.treeMarkers, `… only ${plural(depth, "level")} shown, ${BUDGET}`],
    };
  },
  describe: (s, level) =>
    `the workspace tree shows ${plural(deepestLevel((s.tree as TreeModel).root) - level, "level")}`,
};

const agentsMd: ShrinkStep = {
  levels: (s) => s.agentsMd.length,
  apply(s, level) {
    const depth = (p: string) => p.split("/").length;
    // The shallowest stay: a shallower file governs more of the tree.
    const kept = new Set(
      [...s.agentsMd]
        .sort((a, b) => depth(a) - depth(b) || compare(a, b))
        .slice(0, s.agentsMd.length - level),
    );
    return {
      ...s,
      agentsMd: [...s.agentsMd.filter((p) => kept.has(p)), `… ${level} more, left out ${BUDGET}`],
    };
  },
  describe: (s, level) =>
    `${s.agentsMd.length - level} of ${plural(s.agentsMd.length, "AGENTS.md path")} listed`,
};

const skillDescriptions: ShrinkStep = {
  levels: (s) => (s.skills.some((k) => k.description !== "") ? 1 : 0),
  apply: (s) => ({
    ...s,
    skills: s.skills.map((k) => ({ ...k, description: "" })),
    notes: [
      `Skill descriptions are left out ${BUDGET}: open a skill's file to see what it is for.`,
    ],
  }),
  describe: (s) => `skills listed by name and location only (${plural(s.skills.length, "skill")})`,
};

const skillList: ShrinkStep = {
  levels: (s) => (s.skills.length > 0 ? 1 : 0),
  apply: (s) => ({
    ...s,
    skills: [],
    notes: [
      `${plural(s.skills.length, "skill")} ${s.skills.length === 1 ? "is" : "are"} installed but not listed here, ${BUDGET}.`,
    ],
  }),
  describe: (s) => `the list of ${plural(s.skills.length, "skill")} left out`,
};

const contextFiles: ShrinkStep = {
  levels: (s) => cuttable(s).length,
  apply(s, level) {
    const cut = new Set(cuttable(s).slice(0, level));
    return {
      ...s,
      contextFiles: s.contextFiles.map((f, i) =>
        cut.has(i) ? { ...f, content: CONTEXT_FILE_MARKER } : f,
      ),
    };
  },
  describe(s, level) {
    const cut = cuttable(s).slice(0, level);
    const paths = cut.map((i) => s.contextFiles[i]?.path).join(", ");
    return `${level} of ${plural(s.contextFiles.length, "context file")} left out (${paths})`;
  },
};

/** What a cut always rule's content becomes. */
export const ALWAYS_RULE_MARKER = `[This rule's text is left out ${BUDGET}; read its file before work it may cover.]`;

const ruleDescriptions: ShrinkStep = {
  levels: (s) => (s.onDemandRules.some((r) => r.description !== null) ? 1 : 0),
  apply: (s) => ({
    ...s,
    onDemandRules: s.onDemandRules.map((r) => ({ ...r, description: null })),
    notes: [`Rule descriptions are left out ${BUDGET}: open a rule's file to see what it covers.`],
  }),
  describe: (s) =>
    `on-demand rules listed without descriptions (${plural(s.onDemandRules.length, "rule")})`,
};

const alwaysRules: ShrinkStep = {
  levels: (s) => cuttableRules(s).length,
  apply(s, level) {
    const cut = new Set(cuttableRules(s).slice(0, level));
    return {
      ...s,
      alwaysRules: s.alwaysRules.map((r, i) =>
        cut.has(i) ? { ...r, content: ALWAYS_RULE_MARKER } : r,
      ),
    };
  },
  describe(s, level) {
    const paths = cuttableRules(s)
      .slice(0, level)
      .map((i) => s.alwaysRules[i]?.path)
      .join(", ");
    return `${level} of ${plural(s.alwaysRules.length, "inlined rule")} left out (${paths})`;
  },
};

/**
 * Indices of the always rules worth cutting (longer than the marker), the
 * outermost first (fewest path segments: the user's folders and the project
 * root before deeper folders), ties in prompt order.
 */
function cuttableRules(s: ShrinkState): number[] {
  return s.alwaysRules
    .map((r, i) => ({
      i,
      depth: segments(r.path).length,
      worth: r.content.length > ALWAYS_RULE_MARKER.length,
    }))
    .filter((r) => r.worth)
    .sort((a, b) => a.depth - b.depth || a.i - b.i)
    .map((r) => r.i);
}

/**
 * Indices of the context files worth cutting (longer than the marker that
 * replaces them): the repository's before the user's own, and among each,
 * farthest from the working directory first: folders up to
 * the common ancestor plus folders down from it (the agent dir's file and
 * an extra root's files count their way back). Ties: the one loaded first,
 * which yields to later ones anyway.
 */
function cuttable(s: ShrinkState): number[] {
  const cwd = segments(s.cwd);
  const distance = (path: string) => {
    const dir = segments(path).slice(0, -1);
    let common = 0;
    while (common < dir.length && common < cwd.length && dir[common] === cwd[common]) common++;
    return cwd.length - common + (dir.length - common);
  };
  // The repository's files go before the user's own, whatever their distance.
  return s.contextFiles
    .map((f, i) => ({
      i,
      user: f.origin === "user" ? 1 : 0,
      far: distance(f.path),
      worth: f.content.length > CONTEXT_FILE_MARKER.length,
    }))
    .filter((f) => f.worth)
    .sort((a, b) => a.user - b.user || b.far - a.far || a.i - b.i)
    .map((f) => f.i);
}

function segments(path: string): string[] {
  return path.split("/").filter((p) => p !== "");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const STEPS: Readonly<Record<ShrinkStepName, ShrinkStep>> = {
  "tree-lines": treeLines,
  "tree-depth": treeDepth,
  "agents-md": agentsMd,
  "skill-descriptions": skillDescriptions,
  "skill-list": skillList,
  "context-files": contextFiles,
  "rule-descriptions": ruleDescriptions,
  "always-rules": alwaysRules,
};
