import { MAX_TREE_DEPTH } from "../../gather/tree/depth.js";
import { digits, isBoolean, isStringArray, isWholeNumber } from "../checks.js";
import { configKey, listFlag, option, valueFlag } from "../spec.js";
import { isTime, userPath } from "./_common.js";

const TREE_LEVELS = `a whole number of levels from 1 to ${MAX_TREE_DEPTH}, such as 4`;
const isTreeDepth = isWholeNumber(1, MAX_TREE_DEPTH, TREE_LEVELS);

/** Options about the workspace: its tree, git, and extra roots; entries of `OPTIONS`, in its order. */
export const WORKSPACE_OPTIONS = {
  /** Add a compact listing of cwd (`workspace_tree`) and the AGENTS.md files below it (`dir_context`). Default: false. */
  workspaceTree: option<boolean>()({
    doc: "Add a compact listing of cwd (`workspace_tree`) and the AGENTS.md files below it (`dir_context`).",
    type: "boolean",
    default: "false",
    check: isBoolean,
    scenario: "workspaceTree",
    flag: {
      declare: [
        ["--tree", "add the workspace tree and the list of deeper AGENTS.md files"],
        ["--no-tree", "leave the workspace tree out, whatever sysprompt.yaml says"],
      ],
      // --tree and --no-tree both beat a config file's `tree:`.
      parse: (raw) => (typeof raw === "boolean" ? { value: raw } : undefined),
    },
    config: configKey("tree", "tree: true", isBoolean),
  }),
  /**
   * Levels of entries the workspace tree shows below each root, 1 to 8
   * (the line cap still holds). Only with `workspaceTree`. Default: 3.
   */
  treeDepth: option<number>()({
    doc: "Levels of entries the workspace tree shows below each root (the line cap still holds).",
    type: `1 to ${MAX_TREE_DEPTH}`,
    default: "3",
    check: isTreeDepth,
    flag: {
      ...valueFlag(
        [
          [
            "--tree-depth <n>",
            `levels the workspace tree shows, 1 to ${MAX_TREE_DEPTH} (default 3); turns the tree on`,
          ],
        ],
        isTreeDepth,
        digits,
      ),
      // Asking for a depth is asking for the tree; --no-tree still wins.
      implies: { workspaceTree: true },
    },
    config: configKey("tree-depth", "tree-depth: 4", isTreeDepth),
  }),
  /**
   * Add the `git` section: the branch, its upstream (ahead/behind), counts of
   * staged, unstaged and untracked files and the last 5 commit subjects, from
   * the system git under the deadline. Default: false.
   */
  git: option<boolean>()({
    doc: "Add the `git` section: branch, upstream, changed-file counts, last commit subjects.",
    type: "boolean",
    default: "false",
    check: isBoolean,
    flag: {
      declare: [
        [
          "--git",
          "add the git section: branch, upstream, changed-file counts, last commit subjects",
        ],
      ],
      parse: (raw) => (raw === true ? { value: true } : undefined),
    },
    config: {
      ...configKey<boolean>("git", "git: true", isBoolean),
      // git runs on the repository's own .git: the user asks for that, a repository cannot.
      project: {
        yours: "`true`",
        refuse: (on) =>
          on
            ? {
                code: "config-project-git",
                message:
                  "git: true left out: a project's file cannot turn the git section on (it runs git on the repository's own .git); pass --git, or set git: true in the agent dir's sysprompt.yaml",
              }
            : undefined,
      },
    },
  }),
  /**
   * Git folders outside the project that the git section may read when the
   * project's `.git` file or link leads there (`git init --separate-git-dir`;
   * `~` and relative paths resolve from cwd; each must be an existing folder).
   * Without it such a repository is refused (`git-outside`): a project's
   * `.git` may name any repository of the user's. Worktrees and submodules
   * need no entry. Default: none.
   */
  allowGitDirs: option<readonly string[]>()({
    doc: "Git folders outside the project that the project's `.git` file may lead to (a `--separate-git-dir`).",
    type: "path[]",
    default: "none",
    check: isStringArray,
    flag: listFlag(
      [
        [
          "--allow-git-dir <dir>",
          "a git folder outside the project that its .git file may lead to, such as a --separate-git-dir (repeatable)",
        ],
      ],
      (raw, at) => ({ value: raw.map((dir) => userPath(dir, at)) }),
    ),
  }),
  /**
   * One time shown for every workspace tree entry instead of its own mtime (a
   * Date, epoch milliseconds or an ISO 8601 string), so entries order by name:
   * fixtures checked out anywhere render the same tree. Default: each entry's mtime.
   */
  treeMtime: option<Date | string | number>()({
    doc: "One time shown for every workspace tree entry instead of its own mtime.",
    type: "Date, epoch ms or ISO 8601",
    default: "each entry's mtime",
    check: isTime,
    scenario: "mtime",
  }),
  /**
   * Extra workspace roots (folders; `~` and relative paths resolve from cwd). Each root's
   * ancestors are searched for context files after cwd's, and the `workspace_roots` section
   * lists them. A root that is not a folder throws a SyspromptError. Default: none.
   */
  roots: option<readonly string[]>()({
    doc: "Extra workspace roots: their context files load too, and `workspace_roots` lists them.",
    type: "path[]",
    default: "none",
    check: isStringArray,
    scenario: "roots",
    // Relative to where the command runs, like --cwd itself (not to --cwd).
    flag: listFlag(
      [
        [
          "--root <dir>",
          "extra workspace root: its context files load too (repeatable; relative to the shell's folder, like --cwd)",
        ],
      ],
      (raw, at) => ({ value: raw.map((root) => userPath(root, at)) }),
    ),
  }),
};
