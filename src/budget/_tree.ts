import { maxOf, pushAll } from "../_arrays.js";
import type { TreeLine } from "../gather/tree/index.js";

/**
 * The workspace tree as the budget re-lays it out: the lines the tree step
 * kept, as a tree again. Pure: it works from the lines alone and never looks
 * at the file system, so it can only ever show fewer of them.
 */
export interface TreeModel {
  root: TreeNode;
  /** Lines after the tree (at depth 0, such as the line-limit marker), kept as they are. */
  markers: string[];
}

export interface TreeNode {
  /** The line as built, indentation included (unused for `… K more` lines). */
  text: string;
  depth: number;
  /** Set for a `… K more` line: how many entries it stands for. */
  more?: number;
  /** A `… at least K more` line: its folder was read only in part, so `more` is a floor. */
  atLeast?: boolean;
  children: TreeNode[];
}

const INDENT = "  ";
/** A `… K more` or `… at least K more` line; an entry line always ends with its time, so it never matches. */
// \u2026 is the ellipsis: the CLI bundle stays ASCII (see scripts/bundle-cli.mjs).
const MORE_LINE = /^\s*\u2026 (at least )?(\d+) more$/;

/**
 * Lines with their depth from the rendered text, for a tree that came without
 * them (a hand-built prompt): two spaces per level. Exact unless a name starts
 * with two spaces, which then reads one level deeper.
 */
export function linesFromText(rendered: string): TreeLine[] {
  return rendered.split("\n").map((text, i) => {
    const spaces = text.length - text.trimStart().length;
    // Only the first line is the root; another unindented line is a marker.
    return { depth: i === 0 ? 0 : Math.max(Math.floor(spaces / 2), spaces === 0 ? 0 : 1), text };
  });
}

/** Builds the tree from lines in display order: each line's parent is the nearest shallower line above it. */
export function parseTree(lines: readonly TreeLine[]): TreeModel {
  const [first, ...rest] = lines;
  const root: TreeNode = { text: first?.text ?? "", depth: 0, children: [] };
  const markers: string[] = [];
  const stack: TreeNode[] = [root];
  for (const line of rest) {
    if (line.depth <= 0) {
      markers.push(line.text);
      continue;
    }
    while (stack.length > 1 && (stack[stack.length - 1]?.depth ?? 0) >= line.depth) stack.pop();
    const parent = stack[stack.length - 1] ?? root;
    const more = MORE_LINE.exec(line.text);
    const node: TreeNode = {
      text: line.text,
      // A line deeper than one below its parent (lines the layout dropped) hangs under it all the same.
      depth: parent.depth + 1,
      children: [],
      ...(more ? { more: Number(more[2]), ...(more[1] ? { atLeast: true } : {}) } : {}),
    };
    parent.children.push(node);
    if (!more) stack.push(node);
  }
  return { root, markers };
}

/** The tree's text: root, entries in order, then the marker lines. */
export function renderTree(model: TreeModel, extraMarkers: readonly string[] = []): string {
  const out: string[] = [model.root.text];
  const walk = (node: TreeNode) => {
    for (const child of node.children) {
      out.push(
        child.more === undefined
          ? child.text
          : `${INDENT.repeat(child.depth)}… ${child.atLeast ? "at least " : ""}${child.more} more`,
      );
      walk(child);
    }
  };
  walk(model.root);
  pushAll(out, model.markers, extraMarkers);
  return out.join("\n");
}

/** The most entries (not `… K more` lines) any folder shows. */
export function widestFolder(node: TreeNode): number {
  const own = node.children.filter((c) => c.more === undefined).length;
  return maxOf(node.children.map(widestFolder), own);
}

/** The depth of the deepest line. */
export function deepestLevel(node: TreeNode): number {
  return maxOf(node.children.map(deepestLevel), node.depth);
}

/**
 * At most `cap` entries per folder, the rule the tree is built with: a folder
 * with more keeps its first `cap - 1` (the newest), then one `… K more` line
 * counting everything else (what its own `… K more` already stood for
 * included), then its last entry (the oldest).
 */
export function capEntries(model: TreeModel, cap: number): TreeModel {
  const visit = (node: TreeNode): TreeNode => {
    const entries = node.children.filter((c) => c.more === undefined);
    const hidden = node.children.reduce((n, c) => n + (c.more ?? 0), 0);
    if (entries.length <= cap) return { ...node, children: node.children.map(visit) };
    const last = entries[entries.length - 1] as TreeNode;
    const kept = [...entries.slice(0, Math.max(0, cap - 1)), last];
    const more: TreeNode = {
      text: "",
      depth: node.depth + 1,
      more: hidden + entries.length - kept.length,
      ...(node.children.some((c) => c.atLeast) ? { atLeast: true } : {}),
      children: [],
    };
    const children = kept.map(visit);
    children.splice(children.length - 1, 0, more);
    return { ...node, children };
  };
  return { root: visit(model.root), markers: model.markers };
}

/** Only lines at most `depth` deep (1: the top level alone). */
export function capDepth(model: TreeModel, depth: number): TreeModel {
  const visit = (node: TreeNode): TreeNode => ({
    ...node,
    children: node.depth + 1 > depth ? [] : node.children.map(visit),
  });
  return { root: visit(model.root), markers: model.markers };
}
