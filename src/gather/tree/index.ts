// The tree step: the workspace tree (nested .gitignore and .ignore honoured, no
// linked folder followed) and the AGENTS.md files found in it.

export type { TreeLine } from "./_tree-layout.js";
export {
  AGENTS_MD_DEPTH,
  type BuiltWorkspaceTree,
  buildWorkspaceTree,
  DEFAULT_TREE_DEPTH,
  DEFAULT_TREE_ENTRIES,
  DEFAULT_TREE_LINES,
  MAX_AGENTS_MD,
  treeDiagnostics,
  type WorkspaceTreeOptions,
} from "./tree.js";
export {
  type BuiltWorkspace,
  buildWorkspaceTrees,
  MAX_ROOT_TREES,
  type RootTree,
  workspaceDiagnostics,
} from "./workspace.js";
