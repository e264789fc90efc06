import { maxOf } from "../_arrays.js";
import { closeOpenBlocksOnOwnLine } from "../_fence.js";
import type { AlwaysRule, ContextFile, OnDemandRule, PromptData, SkillEntry } from "../data.js";
import type { TreeLine } from "../gather/tree/index.js";
import { addendumText } from "../locate/custom.js";
import type { AppendPart } from "../options.js";
import type { SectionPatch } from "../sections/render.js";
import type { ShrinkStepName } from "../types.js";
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

/**
 * What one section sees while it shrinks: the data the steps cut, and the
 * marker lines they leave. Every step returns a new state; nothing is changed
 * in place, so any level can be tried from the same state.
 */
export interface ShrinkState {
  tree: TreeModel | null;
  /** Marker lines the tree steps added, after the tree's own. */
  treeMarkers: string[];
  /** Each extra root's tree (in the order of `rootTrees`) and the marker lines the tree steps added to it. */
  rootTrees: { tree: TreeModel; markers: string[] }[];
  agentsMd: string[];
  skills: SkillEntry[];
  contextFiles: ContextFile[];
  alwaysRules: AlwaysRule[];
  onDemandRules: OnDemandRule[];
  /** Lines added at the end of the section (the skill and rule steps' markers), by the step that wrote them. */
  notes: Readonly<Record<string, string>>;
  /** Skills the skill-list step took out of the list. */
  unlistedSkills: number;
  /** The addendum's parts as printed, with their owners; empty when none is the repository's. */
  appendParts: readonly AppendPart[];
  /** The working directory, to tell how far a context file is from it. */
  cwd: string;
  /** Why the markers say text is left out: {@link BUDGET}, or {@link ROOM} when fitting for room only. */
  why: string;
}

/** A builtin step: a number of levels, each cutting more than the one before. */
export interface ShrinkStep {
  /** How many levels the step has on this state; 0 when it has nothing to cut. */
  levels(state: ShrinkState): number;
  /**
   * How many of the first levels cut only the repository's text (a tree,
   * a repository's files, rules and skills), never the user's own. Fitting
   * takes every section's repository levels before any other level, so the
   * user's own text goes only after all of the repository's has.
   */
  repositoryLevels(state: ShrinkState): number;
  /** The state cut at `level` (1 … levels). */
  apply(state: ShrinkState, level: number): ShrinkState;
  /** What the cut at `level` did, for the report and the warning. */
  describe(state: ShrinkState, level: number): string;
}

/**
 * The state before any cut. `treeLines` are cwd's tree's lines with their
 * depth and `rootTreeLines` each root tree's, in the order of
 * `data.rootTrees`; a tree without them is read from its text (and all the
 * roots' are when the list does not match `rootTrees` one for one).
 */
export function initialState(
  data: PromptData,
  treeLines?: readonly TreeLine[],
  rootTreeLines?: readonly (readonly TreeLine[])[],
  appendParts: readonly AppendPart[] = [],
  why: string = BUDGET,
): ShrinkState {
  const tree = data.workspaceTree
    ? parseTree(treeLines ?? linesFromText(data.workspaceTree.rendered))
    : null;
  const given = rootTreeLines?.length === data.rootTrees.length ? rootTreeLines : undefined;
  return {
    tree,
    treeMarkers: [],
    rootTrees: data.rootTrees.map((r, i) => ({
      tree: parseTree(given?.[i] ?? linesFromText(r.rendered)),
      markers: [],
    })),
    agentsMd: data.agentsMd,
    skills: data.skills,
    contextFiles: data.contextFiles,
    alwaysRules: data.alwaysRules,
    onDemandRules: data.onDemandRules,
    notes: {},
    unlistedSkills: 0,
    appendParts,
    cwd: data.cwd,
    why,
  };
}

/** The section's data and notes for a state: only what the steps changed. */
export function patchFor(state: ShrinkState, data: PromptData): SectionPatch {
  const patch: Partial<PromptData> = {};
  const rootsCut = state.rootTrees.some((r) => r.markers.length > 0);
  if (state.tree && data.workspaceTree && (state.treeMarkers.length > 0 || rootsCut)) {
    // `truncated` speaks for every tree the section shows, as gathering sets it.
    patch.workspaceTree = {
      rendered:
        state.treeMarkers.length > 0
          ? closeOpenBlocksOnOwnLine(renderTree(state.tree, state.treeMarkers))
          : data.workspaceTree.rendered,
      truncated: true,
    };
  }
  if (rootsCut) {
    patch.rootTrees = data.rootTrees.map((r, i) => {
      const cut = state.rootTrees[i];
      return cut && cut.markers.length > 0
        ? {
            ...r,
            rendered: closeOpenBlocksOnOwnLine(renderTree(cut.tree, cut.markers)),
            truncated: true,
          }
        : r;
    });
  }
  if (state.agentsMd !== data.agentsMd) patch.agentsMd = state.agentsMd;
  if (state.skills !== data.skills) patch.skills = state.skills;
  if (state.contextFiles !== data.contextFiles) patch.contextFiles = state.contextFiles;
  if (state.alwaysRules !== data.alwaysRules) patch.alwaysRules = state.alwaysRules;
  if (state.onDemandRules !== data.onDemandRules) patch.onDemandRules = state.onDemandRules;
  if (state.appendParts.some((p) => p.text === appendedFileMarker(state.why))) {
    patch.appendPrompt = addendumText(state.appendParts);
  }
  return { data: patch, notes: Object.values(state.notes) };
}

/** Why a cut was made, in its markers: your `--max-tokens`. */
export const BUDGET = "to fit the token budget";
/**
 * Why a cut was made with no token budget of yours: the prompt's 8 MiB. Before,
 * such a cut's markers named a token budget no one set (review rev55a F2).
 */
export const ROOM = "to fit the prompt's size limit";

/**
 * Paths a step's description names; the rest are counted. A repository can
 * hold a thousand rule files and an AGENTS.md in each of two thousand folders
 * above the working one, each path up to 4 KiB: named in full, one cut's
 * description in `budget.cuts` (and `explain`) ran to megabytes.
 */
const MAX_NAMED_PATHS = 20;

function namedPaths(paths: readonly string[]): string {
  const named = paths.slice(0, MAX_NAMED_PATHS).join(", ");
  return paths.length > MAX_NAMED_PATHS
    ? `${named} and ${paths.length - MAX_NAMED_PATHS} more`
    : named;
}

/** What a cut context file's content becomes. */
export const contextFileMarker = (why: string) =>
  `[This file's instructions are left out ${why}; read the file when they may matter for your task.]`;
export const CONTEXT_FILE_MARKER = contextFileMarker(BUDGET);

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/**
 * Every tree the section shows: cwd's, then each root's. The tree steps cut
 * them all to one limit (entries per folder, levels), the max-min fair rule
 * the line budget is split by when the trees are built: a tree within the
 * limit keeps all it has, only the ones past it give, and the limit falls
 * from the widest (deepest) tree of all, wherever it is.
 */
function allTrees(s: ShrinkState): TreeModel[] {
  return [...(s.tree ? [s.tree] : []), ...s.rootTrees.map((r) => r.tree)];
}

/**
 * The state with each tree that `over` says is past the limit replaced by
 * `cut` of it and `marker` added under it; the others as they are.
 */
function cutTrees(
  s: ShrinkState,
  over: (tree: TreeModel) => boolean,
  cut: (tree: TreeModel) => TreeModel,
  marker: string,
): ShrinkState {
  const own = s.tree && over(s.tree);
  return {
    ...s,
    ...(own && s.tree ? { tree: cut(s.tree), treeMarkers: [...s.treeMarkers, marker] } : {}),
    rootTrees: s.rootTrees.map((r) =>
      over(r.tree) ? { tree: cut(r.tree), markers: [...r.markers, marker] } : r,
    ),
  };
}

/** "the workspace tree lists…" for cwd's alone; with roots, which share of the trees the limit cuts. */
function treesDetail(
  s: ShrinkState,
  over: (tree: TreeModel) => boolean,
  one: string,
  many: string,
) {
  const trees = allTrees(s);
  if (s.rootTrees.length === 0) return `the workspace tree ${one}`;
  return `the workspace trees ${many} (${trees.filter(over).length} of ${trees.length} trees cut)`;
}

const widest = (s: ShrinkState) =>
  maxOf(
    allTrees(s).map((t) => widestFolder(t.root)),
    0,
  );
const deepest = (s: ShrinkState) =>
  maxOf(
    allTrees(s).map((t) => deepestLevel(t.root)),
    0,
  );

const treeLines: ShrinkStep = {
  levels: (s) => Math.max(0, widest(s) - 1),
  repositoryLevels: (s) => Math.max(0, widest(s) - 1),
  apply(s, level) {
    const cap = widest(s) - level;
    return cutTrees(
      s,
      (t) => widestFolder(t.root) > cap,
      (t) => capEntries(t, cap),
      `… at most ${plural(cap, "entry", "entries")} per folder shown, ${s.why}`,
    );
  },
  describe(s, level) {
    const cap = widest(s) - level;
    const entries = plural(cap, "entry", "entries");
    return treesDetail(
      s,
      (t) => widestFolder(t.root) > cap,
      `lists at most ${entries} per folder`,
      `list at most ${entries} per folder`,
    );
  },
};

const treeDepth: ShrinkStep = {
  levels: (s) => Math.max(0, deepest(s) - 1),
  repositoryLevels: (s) => Math.max(0, deepest(s) - 1),
  apply(s, level) {
    const depth = deepest(s) - level;
    return cutTrees(
      s,
      (t) => deepestLevel(t.root) > depth,
      (t) => capDepth(t, depth),
      `… only ${plural(depth, "level")} shown, ${s.why}`,
    );
  },
  describe(s, level) {
    const levels = plural(deepest(s) - level, "level");
    return treesDetail(
      s,
      (t) => deepestLevel(t.root) > deepest(s) - level,
      `shows ${levels}`,
      `show ${levels}`,
    );
  },
};

const agentsMd: ShrinkStep = {
  levels: (s) => s.agentsMd.length,
  repositoryLevels: (s) => s.agentsMd.length,
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
      agentsMd: [...s.agentsMd.filter((p) => kept.has(p)), `… ${level} more, left out ${s.why}`],
    };
  },
  describe: (s, level) =>
    `${s.agentsMd.length - level} of ${plural(s.agentsMd.length, "AGENTS.md path")} listed`,
};

/**
 * The skills a skill step cuts, one group a level: the repository's first,
 * then the user's own (the agent dir's, paths the user named, a host's).
 */
function skillGroups(s: ShrinkState, has: (k: SkillEntry) => boolean): SkillEntry[][] {
  const project = s.skills.filter((k) => k.origin === "project" && has(k));
  const user = s.skills.filter((k) => k.origin !== "project" && has(k));
  return [project, user].filter((g) => g.length > 0);
}

const hasDescription = (k: SkillEntry) => k.description !== "";
const anySkill = () => true;
const projectLevel = (s: ShrinkState, has: (k: SkillEntry) => boolean) =>
  s.skills.some((k) => k.origin === "project" && has(k)) ? 1 : 0;
/** The skills cut at `level`: the first `level` groups. */
const skillsCut = (s: ShrinkState, has: (k: SkillEntry) => boolean, level: number) =>
  new Set(skillGroups(s, has).slice(0, level).flat());

const DESCRIPTIONS_NOTE = "skill-descriptions";
const LIST_NOTE = "skill-list";

const skillDescriptions: ShrinkStep = {
  levels: (s) => skillGroups(s, hasDescription).length,
  repositoryLevels: (s) => projectLevel(s, hasDescription),
  apply(s, level) {
    const cut = skillsCut(s, hasDescription, level);
    const skills = s.skills.map((k) => (cut.has(k) ? { ...k, description: "" } : k));
    const all = !skills.some(hasDescription);
    return withNote(
      { ...s, skills },
      DESCRIPTIONS_NOTE,
      all
        ? `Skill descriptions are left out ${s.why}: open a skill's file to see what it is for.`
        : `The repository's skill descriptions are left out ${s.why}: open a skill's file to see what it is for.`,
    );
  },
  describe(s, level) {
    const cut = skillsCut(s, hasDescription, level).size;
    return cut === s.skills.length
      ? `skills listed by name and location only (${plural(s.skills.length, "skill")})`
      : `the repository's skills listed by name and location only (${cut} of ${plural(s.skills.length, "skill")})`;
  },
};

const skillList: ShrinkStep = {
  levels: (s) => skillGroups(s, anySkill).length,
  repositoryLevels: (s) => projectLevel(s, anySkill),
  apply(s, level) {
    const cut = skillsCut(s, anySkill, level);
    const skills = s.skills.filter((k) => !cut.has(k));
    const unlisted = s.unlistedSkills + cut.size;
    const state = { ...s, skills, unlistedSkills: unlisted };
    if (skills.length === 0) {
      // Nothing is listed: a note on descriptions would speak of no skill.
      return withNote(
        withNote(state, DESCRIPTIONS_NOTE, null),
        LIST_NOTE,
        `${plural(unlisted, "skill")} ${unlisted === 1 ? "is" : "are"} installed but not listed here, ${s.why}.`,
      );
    }
    return withNote(
      state,
      LIST_NOTE,
      `${plural(unlisted, "skill")} of the repository ${unlisted === 1 ? "is" : "are"} installed but not listed here, ${s.why}.`,
    );
  },
  describe(s, level) {
    const cut = skillsCut(s, anySkill, level).size;
    return cut === s.skills.length
      ? `the list of ${plural(s.skills.length, "skill")} left out`
      : `the repository's ${plural(cut, "skill")} left out of the list of ${s.skills.length}`;
  },
};

/** The state with the note of `key` set to `text` (null: taken out); notes keep their first place. */
function withNote(s: ShrinkState, key: string, text: string | null): ShrinkState {
  const notes = { ...s.notes };
  if (text === null) delete notes[key];
  else notes[key] = text;
  return { ...s, notes };
}

/** The level of `context-files` that drops the repository's context file `i` whole (element, path and all): `-1 - i`. */
const dropFile = (i: number) => -1 - i;
const droppedFile = (cut: number) => -1 - cut;

/**
 * What `context-files` cuts, level by level: the repository's texts (for a
 * marker), then the repository's files whole, farthest first (a path is the
 * repository's text too: 250 folders of 4 KB names kept 533 KB of elements
 * whose texts were shorter than the marker, and your skill was cut in their
 * place, review rev50b F1), then your own files' texts. A file cut whole is
 * counted in one note line. `dropFile(i)` stands for file `i` dropped.
 */
function contextFileCuts(s: ShrinkState): number[] {
  const texts = cuttable(s);
  const repository = texts.filter((i) => s.contextFiles[i]?.origin !== "user");
  const user = texts.filter((i) => s.contextFiles[i]?.origin === "user");
  const whole = fileOrder(s)
    .filter((i) => s.contextFiles[i]?.origin !== "user")
    .map(dropFile);
  return [...repository, ...whole, ...user];
}

const contextFiles: ShrinkStep = {
  levels: (s) => contextFileCuts(s).length,
  repositoryLevels: (s) =>
    contextFileCuts(s).filter((i) => i < 0 || s.contextFiles[i]?.origin !== "user").length,
  apply(s, level) {
    const cut = new Set(contextFileCuts(s).slice(0, level));
    const dropped = [...cut].filter((c) => c < 0).length;
    const next: ShrinkState = {
      ...s,
      contextFiles: s.contextFiles
        .map((f, i) => (cut.has(i) ? { ...f, content: contextFileMarker(s.why) } : f))
        .filter((_, i) => !cut.has(dropFile(i))),
    };
    if (dropped === 0) return next;
    return withNote(
      next,
      "context-elements",
      `${plural(dropped, "instruction file")} of the repository ${dropped === 1 ? "is" : "are"} left out ${s.why}; ${dropped === 1 ? "it lies" : "they lie"} in the folders between the project root and the working directory, or below it.`,
    );
  },
  describe(s, level) {
    const cuts = contextFileCuts(s).slice(0, level);
    const whole = cuts.filter((c) => c < 0).map(droppedFile);
    const files = [...new Set([...cuts.filter((i) => i >= 0), ...whole])];
    const paths = namedPaths(files.map((i) => s.contextFiles[i]?.path ?? ""));
    const gone = whole.length > 0 ? `, ${whole.length} of them whole` : "";
    return `${files.length} of ${plural(s.contextFiles.length, "context file")} left out (${paths})${gone}`;
  },
};

/** What a cut always rule's content becomes. */
export const alwaysRuleMarker = (why: string) =>
  `[This rule's text is left out ${why}; read its file before work it may cover.]`;
export const ALWAYS_RULE_MARKER = alwaysRuleMarker(BUDGET);

/**
 * The repository's on-demand rule lines, cut in up to two levels: their
 * descriptions, then globs longer than `MAX_KEPT_GLOBS` characters; the
 * user's own keep theirs. A repository's rules may carry tens of kilobytes of
 * globs each (review rev35b: four rules of ~30 KB of globs kept a prompt at
 * ~40,000 tokens under a budget of 20,000, while the user's own texts were
 * cut); `always-rules` then takes the repository's lines out whole. This step
 * comes before `always-rules`, so a level of it for yours would take your
 * text out before a repository's inlined rule is cut: your rules are yours to
 * shorten.
 */
const MAX_KEPT_GLOBS = 200;

type RuleCut = "descriptions" | "globs";

function ruleCuts(s: ShrinkState): RuleCut[] {
  const project = s.onDemandRules.filter((r) => r.origin === "project");
  const cuts: RuleCut[] = [];
  if (project.some((r) => r.description !== null)) cuts.push("descriptions");
  if (project.some((r) => r.globsText.length > MAX_KEPT_GLOBS)) cuts.push("globs");
  return cuts;
}

const ruleDescriptions: ShrinkStep = {
  levels: (s) => ruleCuts(s).length,
  repositoryLevels: (s) => ruleCuts(s).length,
  apply(s, level) {
    const cuts = new Set(ruleCuts(s).slice(0, level));
    let next = s;
    if (cuts.has("descriptions")) {
      next = withNote(
        {
          ...next,
          onDemandRules: next.onDemandRules.map((r) =>
            r.origin === "project" ? { ...r, description: null } : r,
          ),
        },
        "rule-descriptions",
        `Rule descriptions are left out ${s.why}: open a rule's file to see what it covers.`,
      );
    }
    if (cuts.has("globs")) {
      next = withNote(
        {
          ...next,
          onDemandRules: next.onDemandRules.map((r) =>
            r.origin === "project" && r.globsText.length > MAX_KEPT_GLOBS
              ? { ...r, globs: [], globsText: "" }
              : r,
          ),
        },
        "rule-globs",
        `Long glob lists of the repository's rules are left out ${s.why}: open a rule's file to see which files it covers.`,
      );
    }
    return next;
  },
  describe(s, level) {
    const cuts = ruleCuts(s).slice(0, level);
    const project = s.onDemandRules.filter((r) => r.origin === "project");
    const parts: string[] = [];
    if (cuts.includes("descriptions")) parts.push("without descriptions");
    if (cuts.includes("globs")) {
      const long = project.filter((r) => r.globsText.length > MAX_KEPT_GLOBS).length;
      parts.push(`${long} without their globs (over ${MAX_KEPT_GLOBS} characters)`);
    }
    return `the repository's on-demand rules listed ${parts.join(", ")} (${plural(project.length, "rule")})`;
  },
};

/** A level of `always-rules` that takes the repository's on-demand rule lines out. */
const RULE_LINES = -1;
/** The level that drops the repository's always rule `i` whole (element and all): `-2 - i`. */
const dropRule = (i: number) => -2 - i;
const droppedRule = (cut: number) => -2 - cut;

/**
 * What `always-rules` cuts, level by level: the repository's inlined rules
 * (their text, for a marker), then the repository's on-demand rule lines
 * (one level: a list of names and paths costs less than a rule's text, so it
 * goes after them), then the repository's always rules whole, one by one in
 * the same order (a rule of one short line is not worth a marker, but a
 * thousand of them under long names are most of a prompt), then the user's
 * own rules; `RULE_LINES` stands for the lines, `dropRule(i)` for rule `i`.
 */
function alwaysRuleCuts(s: ShrinkState): number[] {
  const rules = cuttableRules(s);
  const repository = rules.filter((i) => s.alwaysRules[i]?.origin !== "user");
  const user = rules.filter((i) => s.alwaysRules[i]?.origin === "user");
  const lines = s.onDemandRules.some((r) => r.origin === "project") ? [RULE_LINES] : [];
  const whole = ruleOrder(s)
    .filter((i) => s.alwaysRules[i]?.origin !== "user")
    .map(dropRule);
  return [...repository, ...lines, ...whole, ...user];
}

const alwaysRules: ShrinkStep = {
  levels: (s) => alwaysRuleCuts(s).length,
  repositoryLevels: (s) =>
    alwaysRuleCuts(s).filter((i) => i < 0 || s.alwaysRules[i]?.origin !== "user").length,
  apply(s, level) {
    const cut = new Set(alwaysRuleCuts(s).slice(0, level));
    let next: ShrinkState = {
      ...s,
      alwaysRules: s.alwaysRules.map((r, i) =>
        cut.has(i) ? { ...r, content: alwaysRuleMarker(s.why) } : r,
      ),
    };
    const dropped = [...cut].filter((c) => c < RULE_LINES).length;
    if (dropped > 0) {
      next = withNote(
        { ...next, alwaysRules: next.alwaysRules.filter((_, i) => !cut.has(dropRule(i))) },
        "rule-elements",
        `${plural(dropped, "always rule file")} of the repository ${dropped === 1 ? "is" : "are"} left out ${s.why}.`,
      );
    }
    if (cut.has(RULE_LINES)) {
      const dropped = s.onDemandRules.filter((r) => r.origin === "project").length;
      // The lines gone, the notes on their descriptions and globs say nothing more.
      next = withNote(withNote(next, "rule-descriptions", null), "rule-globs", null);
      next = withNote(
        { ...next, onDemandRules: s.onDemandRules.filter((r) => r.origin !== "project") },
        "rule-lines",
        `${plural(dropped, "on-demand rule file")} of the repository ${dropped === 1 ? "is" : "are"} not listed ${s.why}.`,
      );
    }
    return next;
  },
  describe(s, level) {
    const cuts = alwaysRuleCuts(s).slice(0, level);
    const whole = cuts.filter((c) => c < RULE_LINES).map(droppedRule);
    // One list of paths: a rule given a marker and then left out whole is named once.
    const rules = [...new Set([...cuts.filter((i) => i >= 0), ...whole])];
    const parts: string[] = [];
    if (rules.length > 0) {
      const paths = namedPaths(rules.map((i) => s.alwaysRules[i]?.path ?? ""));
      const gone = whole.length > 0 ? `, ${whole.length} of them whole` : "";
      parts.push(
        `${rules.length} of ${plural(s.alwaysRules.length, "inlined rule")} left out (${paths})${gone}`,
      );
    }
    if (cuts.includes(RULE_LINES)) {
      const dropped = s.onDemandRules.filter((r) => r.origin === "project").length;
      parts.push(`the repository's on-demand rules not listed (${plural(dropped, "rule")})`);
    }
    return parts.join("; ");
  },
};

/**
 * Indices of the always rules worth cutting (longer than the marker): the
 * repository's before the user's own, as context files are (a repository's
 * rules nested deeper than your rule folder would otherwise keep theirs and
 * cut yours), and among each the outermost first (fewest path segments: the
 * project root before deeper folders), ties in prompt order.
 */
function cuttableRules(s: ShrinkState): number[] {
  return ruleOrder(s).filter(
    (i) => (s.alwaysRules[i]?.content.length ?? 0) > alwaysRuleMarker(s.why).length,
  );
}

/** Indices of the always rules in the order they are cut: the repository's first, then outermost first, ties in prompt order. */
function ruleOrder(s: ShrinkState): number[] {
  return s.alwaysRules
    .map((r, i) => ({ i, user: r.origin === "user" ? 1 : 0, depth: segments(r.path).length }))
    .sort((a, b) => a.user - b.user || a.depth - b.depth || a.i - b.i)
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
  // The repository's files go before the user's own, whatever their distance.
  return fileOrder(s).filter(
    (i) => (s.contextFiles[i]?.content.length ?? 0) > contextFileMarker(s.why).length,
  );
}

/** Indices of every context file, in the order they are cut: the repository's first, then farthest from the working directory, ties in prompt order. */
function fileOrder(s: ShrinkState): number[] {
  const distance = distanceFromCwd(s.cwd);
  return s.contextFiles
    .map((f, i) => ({ i, user: f.origin === "user" ? 1 : 0, far: distance(f.path) }))
    .sort((a, b) => a.user - b.user || b.far - a.far || a.i - b.i)
    .map((f) => f.i);
}

/** How many folders `path`'s folder is from `cwd`: up to their common folder, then down. */
function distanceFromCwd(cwdPath: string): (path: string) => number {
  const cwd = segments(cwdPath);
  return (path) => {
    const dir = segments(path).slice(0, -1);
    let common = 0;
    while (common < dir.length && common < cwd.length && dir[common] === cwd[common]) common++;
    return cwd.length - common + (dir.length - common);
  };
}

function segments(path: string): string[] {
  return path.split("/").filter((p) => p !== "");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What a cut part of the addendum becomes. */
const appendedFileMarker = (why: string) =>
  `[A text of the repository appended here is left out ${why}.]`;

/** Indices of the repository's parts of the addendum worth cutting, the longest first. */
function cuttableAppends(s: ShrinkState): number[] {
  return s.appendParts
    .map((p, i) => ({ i, p }))
    .filter(({ p }) => p.repository && p.text.length > appendedFileMarker(s.why).length)
    .sort((a, b) => b.p.text.length - a.p.text.length || a.i - b.i)
    .map(({ i }) => i);
}

/**
 * The repository's parts of the addendum (a file of the project named by
 * `--append-system-prompt`, a project's or a host's APPEND_SYSTEM.md) give way
 * to a marker, the longest first. Only the repository's: your own appended
 * text is never cut. Named as a project file, such a text was counted as
 * yours and never cut, so your skill was cut in its place (review rev36d, d4).
 */
const appendedFiles: ShrinkStep = {
  levels: (s) => cuttableAppends(s).length,
  repositoryLevels: (s) => cuttableAppends(s).length,
  apply(s, level) {
    const cut = new Set(cuttableAppends(s).slice(0, level));
    return {
      ...s,
      appendParts: s.appendParts.map((p, i) =>
        cut.has(i) ? { ...p, text: appendedFileMarker(s.why) } : p,
      ),
    };
  },
  describe(s, level) {
    return `${level} of ${plural(s.appendParts.filter((p) => p.repository).length, "repository text")} appended left out`;
  },
};

export const STEPS: Readonly<Record<ShrinkStepName, ShrinkStep>> = {
  "tree-lines": treeLines,
  "tree-depth": treeDepth,
  "agents-md": agentsMd,
  "skill-descriptions": skillDescriptions,
  "skill-list": skillList,
  "context-files": contextFiles,
  "rule-descriptions": ruleDescriptions,
  "always-rules": alwaysRules,
  "appended-files": appendedFiles,
};
