/**
 * The most levels a render's `treeDepth` (`--tree-depth`, `tree-depth:`) may
 * ask for: a deeper tree only spends the line budget on the first folders it
 * meets. A module of its own so that the option checks need not load the walk.
 */
export const MAX_TREE_DEPTH = 8;
