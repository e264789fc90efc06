import { dirname, join, relative, resolve, sep } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import {
  addGitignore,
  type IgnoreRules,
  isIgnoredInKeptFolder,
  isIgnoredPaced,
  newPatternBudget,
  type PatternBudget,
  type PatternCut,
} from "../_gitignore.js";
import { lstatKindOrMissing, realpath } from "../_io.js";
import { checkpoint, nextTurn } from "../_pace.js";
import { homeFolder, isWithin, looksAround, xdgFolder } from "../_paths.js";
import { projectOwns } from "../gather/environment/index.js";
import { type GitRefusal, gitExcludeFile } from "../gather/git/index.js";
import { readCappedBytes } from "./capped-read.js";
import { coreExcludesFileSync, isGitFolder } from "./git-file.js";
import { type HgCopy, hgIgnoreAround, hgIgnored } from "./hgignore.js";
import { holdsGit, holdsRepository, holdsUsableGit } from "./project-root.js";
import { expandHome, yourExcludesFile } from "./safe-directory.js";

/**
 * A `.gitignore` (or `.git/info/exclude`) larger than this is read only up to
 * here: real ones are a few KiB, and the rules must not cost more than the
 * imports they guard.
 */
const MAX_GITIGNORE_BYTES = 256 * 1024;

/** Why a path of a project is private, in words that follow "… is". */
export type PrivateReason =
  | "inside .git/"
  | "hidden (a name that starts with a dot)"
  | "ignored by git"
  | "excluded by .git/info/exclude"
  | "ignored by your global git excludes"
  | "ignored by Mercurial (.hgignore)"
  | `under ignore rules not read whole (${string})`;

/** The verdict on one path: where it is, relative to its project, and why it is private. */
export interface PrivateVerdict {
  /** The path relative to the project root, "/"-separated. */
  rel: string;
  why: PrivateReason;
  /**
   * True when the path is private only because an ignore file on its way was
   * not read whole: git may keep it. A check that skips what git ignores for
   * its own sake (a build folder's context files, trusted) may pass it; a
   * check that guards the repository's reach must not.
   */
  cut?: true;
}

/**
 * The verdict on `path`; with `folder`, on the folder `path` itself, as the
 * workspace tree asks whether to list it (a pattern `name/` names a folder).
 * `hidden` says for this path whether a hidden name makes it private
 * (default: the checker's {@link PrivatePathsOptions.hidden}).
 */
export type PrivatePathCheck = (
  path: string,
  folder?: boolean,
  hidden?: boolean,
) => Promise<PrivateVerdict | undefined>;

/** How {@link privatePaths} reads a project. */
// Its own module, so that a reader importing it (own-private.ts) takes no path through this one.
export { NO_DEADLINE } from "./no-deadline.js";

export interface PrivatePathsOptions {
  /** False: a hidden name alone does not make a path private. */
  hidden?: boolean;
  /**
   * Heard before each folder's verdict, as the event loop gets its turn
   * there: a verdict tests every pattern in force at the folder's path
   * length, and an import hundreds of folders deep took 95 s of checks
   * that ran on after a render had given up on them. Required: a caller
   * with no deadline of its own passes {@link NO_DEADLINE}, by name.
   */
  signal: AbortSignal;
  /**
   * Where your global git excludes are found (`$XDG_CONFIG_HOME/git/ignore`,
   * else `~/.config/git/ignore`). Default: `process.env` and `homeFolder()`.
   */
  env?: Readonly<Record<string, string | undefined>>;
  home?: string;
}

/**
 * Tells which paths of one project an untrusted project may not bring into
 * the prompt: anything inside `.git/` (its config holds remote URLs with
 * tokens), anything hidden (`.env`, `.npmrc`, `.aws/`), and anything git
 * ignores (the `.gitignore` files from the root down to the path, and
 * `.git/info/exclude`, in the common git folder of a linked worktree or a
 * submodule, as git reads it; and your global git excludes, anchored at the
 * top of the innermost repository that holds the path, as git anchors them
 * when you work there, and at the project's top; and what the `.hgignore` of
 * each Mercurial working copy of yours at or above `root` ignores,
 * {@link hgIgnoreAround}, a `.git` or `.hg` between them no boundary). What
 * `.git/info/exclude` names stays private even where the repository's own
 * `.gitignore` takes it back (`!credentials.json`): git lets it, but the
 * exclude file is the clone's, not the repository's. A boundary found
 * below a repository only ever takes away: where `root` is a repository git
 * does not know (a Mercurial, Jujutsu or Subversion working copy, a git
 * folder or a look-alike of one, planted by the tree around it), the
 * repositories around it ({@link enclosingRepositories}) keep their say, and
 * a path private in any of them is private here. A path
 * outside the project is not this check's business (confinement refuses
 * it): the answer is undefined. Each folder's `.gitignore` is read once
 * per checker.
 */
export function privatePaths(root: string, options: PrivatePathsOptions): PrivatePathCheck {
  const home = options.home ?? homeFolder();
  // Read once, unless it lies in the project; each repository's checker matches it from its own top.
  let global: Promise<ExcludesRead> | undefined;
  const yours = () => {
    global ??= globalExcludes(root, options.env ?? process.env, home);
    return global;
  };
  const own = ownPrivatePaths(root, options, yours);
  let around: Promise<PrivatePathCheck[]> | undefined;
  return async (path, folder, hidden) => {
    const verdict = await own(path, folder, hidden);
    if (verdict !== undefined || !isWithin(path, root)) return verdict;
    around ??= enclosingRepositories(root, home, options.signal).then((roots) =>
      roots.map((outer) => ownPrivatePaths(outer, options, yours)),
    );
    for (const outer of await around) {
      const found = await outer(path, folder, hidden);
      if (found !== undefined) return { ...found, rel: relative(root, path).split(sep).join("/") };
    }
    return undefined;
  };
}

/**
 * The repositories around `root` whose work tree, as git sees it, holds
 * `root`'s files, nearest first: none when `root` holds a `.git` git would
 * use ({@link holdsUsableGit}: a clone, a submodule or a worktree is git's
 * own repository, whose files no repository around it ignores) or is no
 * repository at all; else each folder above it that is a repository's top
 * ({@link holdsRepository}, {@link isGitFolder}), up to and with the nearest
 * one holding a `.git` git would use. A `.git` git would not use (an empty
 * file, a link that leads nowhere, an empty folder, a `gitdir:` naming
 * nothing) is no boundary of rules: git's walk of the work tree around it
 * goes on into it.
 * The walk stops below the home folder (a dotfiles repository is yours, as
 * its rules: the home folder is never a project root) and hears `signal`.
 */
export async function enclosingRepositories(
  root: string,
  home: string,
  signal?: AbortSignal,
): Promise<string[]> {
  if (await holdsUsableGit(root)) return [];
  if (!(await holdsRepository(root)) && !(await isGitFolder(root))) return [];
  const homes = [resolve(home), await realpathOrSelf(resolve(home))];
  const out: string[] = [];
  for (let dir = dirname(root); looksAround(dir, undefined, homes); dir = dirname(dir)) {
    await checkpoint(signal);
    if (await holdsUsableGit(dir)) {
      out.push(dir);
      break;
    }
    if ((await holdsRepository(dir)) || (await isGitFolder(dir))) out.push(dir);
    if (dirname(dir) === dir) break;
  }
  return out;
}

/**
 * {@link privatePaths} of `root` alone, with your global excludes (`global`)
 * matched as git matches them where you work: from `root`'s top, and from the
 * top of the innermost repository of its own below it that holds the path.
 */
function ownPrivatePaths(
  root: string,
  options: PrivatePathsOptions,
  global: () => Promise<ExcludesRead>,
): PrivatePathCheck {
  const { signal } = options;
  // The `core.excludesFile` the repository's own config names (a worktree's main repository's).
  let named: Promise<ExcludesRead> | undefined;
  const rules = new Map<string, Promise<FolderRules>>();
  // A repository's ignore files may hold hundreds of thousands of patterns: the same caps as the tree's.
  const budget = newPatternBudget();
  let excluded: Promise<IgnoreRules | undefined> | undefined;
  // The `.hgignore` of each Mercurial working copy at or above `root`, and `root`'s path below its top.
  let hg: Promise<HgCopy[]> | undefined;
  // Where git keeps the clone's exclude file: the common git folder in a worktree or submodule.
  let excludeFile: Promise<string | GitRefusal | undefined> | undefined;
  const excludePath = () => {
    excludeFile ??= gitExcludeFile(root, undefined, options.home).catch(() => undefined);
    return excludeFile;
  };
  /** The rules that apply inside the folder `key` ("a/b", "" for the root), its parents' included. */
  const rulesOf = (key: string): Promise<FolderRules> => {
    let found = rules.get(key);
    if (found === undefined) {
      found =
        key === ""
          ? rootRules(root, excludePath(), budget)
          : folderRules(root, key, rulesOf, budget);
      rules.set(key, found);
    }
    return found;
  };
  // Whether each folder looked at ("a/b") is ignored, for this checker's life: the paths asked
  // about share their folders (a touched path is asked about at every depth), and a path 1,000
  // folders deep asked again from its top would cost its depth squared, each time.
  const folderIgnored = new Map<string, boolean>();
  // A repository of its own below the root (a submodule, a nested clone) has its own exclude
  // file, where git reads it when you work there (`.git/modules/<name>/info/exclude`).
  const nested = nestedRepositories(root, options.home);
  return async (path, folder = false, hidden = options.hidden ?? true) => {
    if (!isWithin(path, root)) return undefined;
    const parts = relative(root, path)
      .split(sep)
      .filter((p) => p !== "");
    if (parts.length === 0) return undefined;
    const rel = parts.join("/");
    if (parts[0] === ".git") return { rel, why: "inside .git/" };
    if (hidden && parts.some((p) => p.startsWith("."))) {
      return { rel, why: "hidden (a name that starts with a dot)" };
    }
    // ends[i]: where the folder of the first i + 1 parts ends in `rel`.
    const ends: number[] = [];
    for (let i = 0, at = -1; i < parts.length; i++) {
      at += (parts[i]?.length ?? 0) + 1;
      ends.push(at);
    }
    const folderAt = (depth: number) => (depth === 0 ? "" : rel.slice(0, ends[depth - 1]));
    // From the nearest folder known, down: a file inside an ignored folder is ignored whatever a
    // deeper rule says, as in git, so each folder is asked only with its parents known kept.
    let depth = parts.length - 1;
    while (depth > 0 && !folderIgnored.has(folderAt(depth))) depth--;
    if (depth > 0 && folderIgnored.get(folderAt(depth))) return { rel, why: "ignored by git" };
    for (depth++; depth < parts.length; depth++) {
      const turn = nextTurn(signal);
      if (turn) await turn;
      const folder = folderAt(depth);
      const ignored = isIgnoredInKeptFolder(
        (await rulesOf(folderAt(depth - 1))).rules,
        `${folder}/`,
      );
      folderIgnored.set(folder, ignored);
      if (ignored) return { rel, why: "ignored by git" };
    }
    const turn = nextTurn(signal);
    if (turn) await turn;
    // What the patterns are asked: a folder by its name with a slash.
    const asked = folder ? `${rel}/` : rel;
    const inFolder = await rulesOf(folderAt(parts.length - 1));
    if (isIgnoredInKeptFolder(inFolder.rules, asked)) return { rel, why: "ignored by git" };
    // The rule cut (its own folder's or one above) may be the one that ignores this path:
    // a cut is a refusal, never a pass.
    if (inFolder.cut !== undefined) return { rel, why: notReadWhole(inFolder.cut), cut: true };
    // A Mercurial working copy's `.hgignore` names your local files as a `.gitignore` does (rev68a F3).
    // Every working copy at or above the root: a `.git` or `.hg` below its top ends nothing (rev70b
    // F10, rev82a F1).
    hg ??= hgIgnoreAround(root, { home: options.home, signal });
    const around = await hg;
    if (hgIgnored(around, asked.endsWith("/") ? asked.slice(0, -1) : asked)) {
      return { rel, why: "ignored by Mercurial (.hgignore)" };
    }
    const hgCut = around.find((c) => c.rules.cut !== undefined)?.rules.cut;
    if (hgCut !== undefined) return { rel, why: notReadWhole(hgCut), cut: true };
    // Not ignored as git has it: a repository's `!name` may have taken back the exclude file's entry.
    excluded ??= excludePath().then((file) =>
      typeof file === "string" ? rulesOfFile(file, excludeHow(file)) : undefined,
    );
    // Paced: the exclude file's patterns are tested at each folder of a path hundreds deep.
    if (await isIgnoredPaced(await excluded, asked, signal)) {
      return { rel, why: "excluded by .git/info/exclude" };
    }
    // The innermost repository around the path (a folder that is one's top is asked of the one around it).
    const inner = await nested.of(folderAt(parts.length - 1));
    // The path below that repository's top, where its own lists anchor `/name`.
    const innerRel = inner === "" ? "" : asked.slice(inner.length + 1);
    const innerList = inner === "" ? undefined : await nested.exclude(inner);
    if (inner !== "" && (await isIgnoredPaced(innerList?.rules, innerRel, signal))) {
      return { rel, why: "excluded by .git/info/exclude" };
    }
    // A nested repository whose `.git` names another's git folder: its exclude list unread (rev99a F7).
    if (innerList?.refused !== undefined) {
      return { rel, why: notReadWhole(innerList.refused), cut: true };
    }
    // Yours too, and as sticky: a repository's `!name` does not take back what you ignore everywhere.
    // The file your config names (`core.excludesFile`, else git's default), and the one the
    // repository's config names, each asked on its own: either only hides more (review rev104a F1).
    const yours = await global();
    named ??= excludePath().then((file) =>
      repositoryExcludes(root, file, options.home ?? homeFolder(), yours.file),
    );
    const theirs = await named;
    for (const list of [yours.rules, theirs.rules]) {
      if (
        (await isIgnoredPaced(list, asked, signal)) ||
        (inner !== "" && (await isIgnoredPaced(list, innerRel, signal)))
      ) {
        return { rel, why: "ignored by your global git excludes" };
      }
    }
    // An excludes file named but not read whole (a FIFO, past the cap, a config git would refuse):
    // nothing is proven kept, as below a `.gitignore` not read whole.
    const unread = yours.cut ?? theirs.cut;
    if (unread !== undefined) return { rel, why: notReadWhole(unread), cut: true };
    return undefined;
  };
}

/**
 * The repositories of their own inside `root`: `of(folder)` is the nearest
 * folder at or above `folder` ("a/b", "" for the root) that holds a `.git`,
 * below the root ("" for none), each folder looked at once; `exclude(key)`
 * that repository's exclude file, found as git finds it ({@link gitExcludeFile})
 * and read as the root's is, where its `.git` points checked as the git
 * section checks it (review rev99a F7).
 */
function nestedRepositories(root: string, home: string | undefined) {
  const repoOf = new Map<string, Promise<string>>();
  const excludes = new Map<string, Promise<ExcludeList>>();
  const of = (key: string): Promise<string> => {
    if (key === "") return Promise.resolve("");
    let found = repoOf.get(key);
    if (found === undefined) {
      const parent = key.slice(0, Math.max(key.lastIndexOf("/"), 0));
      found = holdsGit(join(root, key)).then((has) => (has ? key : of(parent)));
      repoOf.set(key, found);
    }
    return found;
  };
  const exclude = (key: string): Promise<ExcludeList> => {
    let rules = excludes.get(key);
    if (rules === undefined) {
      rules = excludeList(join(root, key), undefined, root, home);
      excludes.set(key, rules);
    }
    return rules;
  };
  return { of, exclude };
}

/** An excludes file as read: its rules, the file (resolved), and why it was not read whole. */
interface ExcludesRead {
  rules: IgnoreRules | undefined;
  file?: string;
  cut?: string;
}

/**
 * Your global git excludes: the `core.excludesFile` your git config names
 * ({@link yourExcludesFile}: system, global, `GIT_CONFIG_COUNT`; the last
 * value, `~/` expanded, a relative one from the repository's top), else
 * git's default (`$XDG_CONFIG_HOME/git/ignore`, else `~/.config/git/ignore`;
 * a relative `XDG_CONFIG_HOME` is ignored). Git's default is read as
 * `.git/info/exclude` is (a capped regular file), unless it lies in the
 * project (`HOME` inside the checkout: the project's file, not yours). A
 * file your config names is read whole or not at all: a FIFO, a device, one
 * past the cap or a config git would refuse gives `cut`, and the door
 * refuses below it (review rev104a F1); one in the project is read as an
 * in-tree `.gitignore` is (no link followed, one name).
 */
async function globalExcludes(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): Promise<ExcludesRead> {
  const owns = projectOwns([root]);
  const named = await yourExcludesFile(env, home, owns);
  if ("unsure" in named) return { rules: undefined, cut: named.unsure };
  if (named.set) {
    if (named.file === undefined) return { rules: undefined };
    const file = resolve(root, named.file);
    return {
      ...(await namedExcludes(file, (await owns(file)) ? IN_TREE : { follow: true })),
      file,
    };
  }
  const config = xdgFolder(env, "XDG_CONFIG_HOME") ?? join(home, ".config");
  const file = join(config, "git", "ignore");
  if (await owns(file)) return { rules: undefined };
  return { rules: await rulesOfFile(file), file };
}

/**
 * The `core.excludesFile` the config of the repository whose exclude file is
 * `exclude` names (its common git folder's `config`: a worktree's main
 * repository's), unless it is `yours` (read already). A config of yours (out
 * of the project `root`) is followed as your global excludes are; the
 * project's own config (a `.git` a tarball ships) names a file read only
 * within the repository (its work tree, no link followed, or its git
 * folder), and one elsewhere is not read, `cut`: its lines, any file of
 * yours, would be told by what the tree and the door hide (rev98a F2). A
 * config that cannot tell (an `[include]`, past its cap) is `cut` too.
 */
async function repositoryExcludes(
  root: string,
  exclude: string | GitRefusal | undefined,
  home: string,
  yours: string | undefined,
): Promise<ExcludesRead> {
  if (typeof exclude !== "string") return { rules: undefined };
  const gitFolder = dirname(dirname(exclude));
  const config = join(gitFolder, "config");
  const value = coreExcludesFileSync(gitFolder);
  if (value === null || value === "") return { rules: undefined };
  if (value === "unsure") {
    return { rules: undefined, cut: `${config} could not be read for core.excludesFile` };
  }
  const file = resolve(root, expandHome(value, home));
  if (yours !== undefined && file === yours) return { rules: undefined };
  const owns = projectOwns([root]);
  if (!(await owns(config))) return { ...(await namedExcludes(file, { follow: true })), file };
  if (isWithin(file, gitFolder)) return namedExcludes(file, { follow: true, gitDir: gitFolder });
  if (await owns(file)) return namedExcludes(file, IN_TREE);
  return {
    rules: undefined,
    cut: `${config} names ${file} as core.excludesFile, out of the repository, which is not read`,
  };
}

/** A `core.excludesFile` named: its rules, or `cut` when it is there but not read whole. */
async function namedExcludes(file: string, how: IgnoreFileHow): Promise<ExcludesRead> {
  // Followed, a FIFO or device reads as none to {@link readIgnoreFile}: named, it is refused.
  if (how.follow) {
    const real = await realpath(file).catch(() => undefined);
    const kind = real === undefined ? undefined : await lstatKindOrMissing(real);
    if (kind === "other") {
      return {
        rules: undefined,
        cut: `${file} could not be read (not a regular file: a FIFO, socket or device)`,
      };
    }
  }
  const found = await withFile(undefined, file, "", newPatternBudget(), undefined, how);
  return found.cut === undefined ? { rules: found.rules } : { rules: found.rules, cut: found.cut };
}

/**
 * The exclude file git reads for the repository whose top is `repo`
 * ({@link gitExcludeFile}: the common git folder's in a worktree or a
 * submodule), its patterns from that top; undefined when there is none.
 */
export function excludeRules(
  repo: string,
  cuts?: PatternCut[],
  project?: string,
  home?: string,
): Promise<IgnoreRules | undefined> {
  return excludeList(repo, cuts, project, home).then((list) => list.rules);
}

/**
 * {@link excludeRules}, and `refused`: the repository's `.git` names a git folder outside it
 * that is another repository's ({@link gitExcludeFile}: `gitdir: /home/you/priv/.git`), whose
 * exclude file is not read, why (pushed to `cuts` as a file not read, for a walk to say): the
 * door refuses below it as below an ignore file not read whole (review rev99a F7). `project`:
 * the project a repository of its own below its root lies in (a git folder in it is its own).
 */
async function excludeList(
  repo: string,
  cuts?: PatternCut[],
  project?: string,
  home?: string,
): Promise<ExcludeList> {
  const found = await gitExcludeFile(repo, project, home).catch(() => undefined);
  if (typeof found === "string" || found === undefined) {
    return { rules: await rulesOfFile(found, excludeHow(found), cuts) };
  }
  const unread = `${found.refused.message}; its info/exclude is not read`;
  cuts?.push({ path: found.refused.path, kept: 0, dropped: 0, unread });
  return { rules: undefined, refused: refusedExclude(found) };
}

/** An exclude file passed over with its git folder ({@link excludeList}), as a cut is said. */
interface ExcludeList {
  rules: IgnoreRules | undefined;
  refused?: string;
}

/** Why the exclude file of a refused git folder is not read, as a cut says it. */
function refusedExclude(found: GitRefusal): string {
  return `${found.refused.path}: ${found.refused.message}; its info/exclude is not read`;
}

/**
 * The ignore lists that are yours, not the repository's, for the repository
 * whose top is `repo` (none: a folder in no repository), patterns from its
 * top: its exclude file ({@link excludeRules}) and your global git excludes
 * ({@link globalIgnoreRules}). What they name is private for the
 * door whatever the repository's `.gitignore` takes back; each list is asked
 * on its own. Anything else that shows a project's names (the workspace
 * tree) hides what these lists name, so that it says no more than the door.
 */
export async function yourIgnoreLists(
  repo: string | undefined,
  project: string,
  options: {
    env?: Readonly<Record<string, string | undefined>>;
    home?: string;
    /** Where an exclude file passed over is recorded, for a walk to say (`ignore-patterns-cut`). */
    cuts?: PatternCut[];
  } = {},
): Promise<IgnoreRules[]> {
  const home = options.home ?? homeFolder();
  const yours = await globalExcludes(project, options.env ?? process.env, home);
  if (yours.cut !== undefined) options.cuts?.push(unreadCut(yours));
  const lists = await Promise.all([
    repo === undefined ? undefined : excludeRules(repo, options.cuts, undefined, options.home),
    yours.rules,
    // The excludes file the repository's config names (review rev104a F1).
    repo === undefined
      ? undefined
      : gitExcludeFile(repo, project, options.home)
          .catch(() => undefined)
          .then((file) => repositoryExcludes(project, file, home, yours.file))
          .then((theirs) => {
            if (theirs.cut !== undefined) options.cuts?.push(unreadCut(theirs));
            return theirs.rules;
          }),
  ]);
  return lists.filter((l): l is IgnoreRules => l !== undefined);
}

/** An excludes file not read whole, as a walk says a cut (`ignore-patterns-cut`). */
function unreadCut(read: ExcludesRead): PatternCut {
  return { path: read.file ?? "core.excludesFile", kept: 0, dropped: 0, unread: read.cut ?? "" };
}

/**
 * Your global git excludes alone ({@link yourIgnoreLists}' second list),
 * patterns from the top: a walk that meets many repositories of their own
 * compiles them once and asks each path below the top of the one holding it.
 */
export async function globalIgnoreRules(
  project: string,
  options: {
    env?: Readonly<Record<string, string | undefined>>;
    home?: string;
    cuts?: PatternCut[];
  } = {},
): Promise<IgnoreRules | undefined> {
  const read = await globalExcludes(
    project,
    options.env ?? process.env,
    options.home ?? homeFolder(),
  );
  if (read.cut !== undefined) options.cuts?.push(unreadCut(read));
  return read.rules;
}

/** The patterns of the capped regular file `file` alone, from the top, with a budget of their own. */
function rulesOfFile(
  file: string | undefined,
  how: IgnoreFileHow = { follow: true },
  cuts?: PatternCut[],
): Promise<IgnoreRules | undefined> {
  if (file === undefined) return Promise.resolve(undefined);
  return withFile(undefined, file, "", newPatternBudget(), undefined, how).then((found) => {
    // A repository's exclude file passed over (a hard link, a link out of its git folder): said once.
    if (found.unread !== undefined && how.follow && how.gitDir !== undefined) {
      cuts?.push({ path: file, kept: 0, dropped: 0, unread: found.unread });
    }
    return found.rules;
  });
}

/**
 * The ignore rules in force in one folder, and `cut`: where a list on its way
 * (its own or a parent folder's, or the exclude file) was not read whole,
 * said as a {@link PrivateReason} goes on. Below such a folder nothing is
 * proven kept by git's rules, so the door refuses every path.
 */
interface FolderRules {
  rules: IgnoreRules | undefined;
  cut: string | undefined;
  /** The file is there but was not read (a FIFO, a hard link, …): why. */
  unread?: string;
}

function notReadWhole(cut: string): PrivateReason {
  return `under ignore rules not read whole (${cut})`;
}

async function rootRules(
  root: string,
  exclude: Promise<string | GitRefusal | undefined>,
  budget: PatternBudget,
): Promise<FolderRules> {
  const excludeFile = await exclude;
  // Another repository's git folder (`gitdir:` naming yours): its exclude file is not read, and
  // nothing below is proven kept (review rev99a F7), as below an exclude file not read whole.
  const excluded =
    excludeFile === undefined
      ? { rules: undefined, cut: undefined }
      : typeof excludeFile !== "string"
        ? { rules: undefined, cut: refusedExclude(excludeFile) }
        : await withFile(undefined, excludeFile, "", budget, root, excludeHow(excludeFile));
  const own = await withFile(excluded.rules, join(root, ".gitignore"), "", budget, root, IN_TREE);
  return { rules: own.rules, cut: excluded.cut ?? own.cut };
}

async function folderRules(
  root: string,
  key: string,
  rulesOf: (key: string) => Promise<FolderRules>,
  budget: PatternBudget,
): Promise<FolderRules> {
  const parent = await rulesOf(key.slice(0, Math.max(key.lastIndexOf("/"), 0)));
  const own = await withFile(
    parent.rules,
    join(root, key, ".gitignore"),
    key,
    budget,
    root,
    IN_TREE,
  );
  return { rules: own.rules, cut: parent.cut ?? own.cut };
}

/**
 * How an in-tree `.gitignore` is read: a link is no ignore file, as git (2.32 and
 * later) opens it with O_NOFOLLOW and takes it as missing, and as the workspace
 * tree reads it. `.git/info/exclude` and your global excludes are followed, as git
 * follows them (rev51a F4: `sub/.gitignore -> ../negate.txt` holding `!secrets.txt`
 * took back a file git ignores, and a link to `~/.ssh/id_ed25519` was read as patterns).
 */
const IN_TREE = { follow: false } as const;

/**
 * How a repository's exclude file `file` (`<git folder>/info/exclude`, the git
 * folder a real path) is read: followed, as git follows it, but only to a file
 * within that git folder, and of one name (rev98a F2: a tarball can ship `.git`).
 */
function excludeHow(file: string | undefined): IgnoreFileHow {
  return file === undefined ? { follow: true } : { follow: true, gitDir: dirname(dirname(file)) };
}

/** An ignore file as the door reads it (see {@link readIgnoreFile}). */
export type IgnoreFileRead =
  /** Its first `maxBytes` bytes; `whole` false when it is longer. */
  | { read: "bytes"; bytes: Uint8Array; whole: boolean }
  /** No ignore file: nothing there, a folder, or (in the tree) a link, as for git. */
  | { read: "none" }
  /** There, but not read (a FIFO, socket or device, no permission): `why`. */
  | { read: "not-read"; why: string };

/**
 * How an ignore file is read ({@link readIgnoreFile}): `follow` false, the
 * repository's in-tree file (never through a final link); `gitDir`, the
 * repository's exclude file, followed but only to a file within its own git
 * folder (`gitDir`, a real path); neither, your global excludes, as before.
 * A repository's ignore file (in the tree, or its exclude file) must have one
 * name: a hard link is not read as patterns (rev98a F2).
 */
export type IgnoreFileHow = { follow: false } | { follow: true; gitDir?: string };

/**
 * An ignore file as git reads it, for every reader of one (the door, the
 * workspace tree, the skills walk, `explain --simulate`'s copy): bytes, not
 * decoded text (decoding made each CR a line end and a NUL the whole file
 * none, rev71a F4), a regular file only, opened without blocking (a FIFO is
 * refused from its `lstat`, and the open is O_NONBLOCK), never through a final
 * link with `follow` false (git reads no linked in-tree `.gitignore`). A FIFO,
 * socket or device is there but not read: git blocks on a FIFO or reads
 * nothing, so no verdict below it is git's (rev58a F3). Your clone's
 * `.git/info/exclude` and global excludes, followed, so made are none.
 * A repository's ignore file with more than one name (a hard link: a tarball's
 * member naming `../home/.bashrc`) is there but not read, since its lines may
 * be any file of yours and the tree and the door's refusals would tell a
 * guessed line from a wrong guess; so is a repository's exclude file that is a
 * link leading out of its git folder (rev98a F2). Your global excludes are
 * read whatever their links.
 */
export async function readIgnoreFile(
  path: string,
  maxBytes: number,
  how: IgnoreFileHow = IN_TREE,
): Promise<IgnoreFileRead> {
  let at = path;
  if (how.follow && how.gitDir !== undefined) {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined) return { read: "none" };
    if (!isWithin(real, how.gitDir)) {
      return { read: "not-read", why: "a link leading out of the repository's git folder" };
    }
    at = real;
  }
  const read = await readCappedBytes(at, maxBytes, at === path ? how : IN_TREE);
  if (read.ok) {
    if (read.names > 1 && (!how.follow || how.gitDir !== undefined)) {
      return {
        read: "not-read",
        why: `it has ${read.names} names (hard links to one file), whose other names may be any file of yours`,
      };
    }
    return {
      read: "bytes",
      bytes: read.bytes.subarray(0, maxBytes),
      whole: read.total <= maxBytes,
    };
  }
  const none =
    read.reason === "missing" ||
    (read.reason === "not-file" && (how.follow || (await lstatKindOrMissing(path)) !== "other"));
  if (none) return { read: "none" };
  return {
    read: "not-read",
    why: read.reason === "not-file" ? "not a regular file: a FIFO, socket or device" : "unreadable",
  };
}

/**
 * `rules` with the in-tree ignore file `path` added (its patterns rebased to
 * `base`), read by {@link readIgnoreFile}, for what skips git-ignored files
 * for its own sake (the workspace tree, the skills walk, the simulate copy):
 * a file not read whole (past `maxBytes`, a FIFO, unreadable) is recorded in
 * `budget.cuts` as `unread`, which {@link ignoreCutDiagnostics} says
 * (`ignore-patterns-cut`), and what was read of it still counts. The door
 * itself refuses below such a file.
 */
export async function withIgnoreFile(
  rules: IgnoreRules | undefined,
  path: string,
  base: string,
  budget: PatternBudget,
  maxBytes: number,
): Promise<IgnoreRules | undefined> {
  return addIgnoreFile(rules, await readIgnoreFile(path, maxBytes), path, base, budget, maxBytes);
}

/** {@link withIgnoreFile} of a file already read (several read at once, added in order). */
export function addIgnoreFile(
  rules: IgnoreRules | undefined,
  file: IgnoreFileRead,
  path: string,
  base: string,
  budget: PatternBudget,
  maxBytes: number,
): IgnoreRules | undefined {
  if (file.read === "none") return rules;
  if (file.read === "not-read") {
    budget.cuts.push({ path, kept: 0, dropped: 0, unread: file.why });
    return rules;
  }
  if (!file.whole) {
    budget.cuts.push({ path, kept: 0, dropped: 0, unread: `read up to ${maxBytes / 1024} KiB` });
  }
  return addGitignore(rules, file.bytes, base, budget, path);
}

/**
 * `list` with the patterns of `file` added (rebased to `base`); `list` itself
 * when there is no such file (or, with `follow` false, a link). `cut` says where
 * the file was not read whole: past the byte cap, past the pattern budget, a
 * pattern the matcher refuses, or a file that is there but cannot be read.
 * `root` names the file in it.
 */
async function withFile(
  list: IgnoreRules | undefined,
  file: string,
  base: string,
  budget: PatternBudget,
  root?: string,
  how: IgnoreFileHow = { follow: true },
): Promise<FolderRules> {
  const name = root === undefined || !isWithin(file, root) ? file : relative(root, file);
  // Capped, regular files only. A folder, or (in the tree) a link, is no ignore file, as for git;
  // an in-tree FIFO, socket or device is there but not read (git blocks on a FIFO: no verdict), so
  // nothing below it is proven kept (rev58a F3: a FIFO `.gitignore` counted as none, silently).
  // Your clone's `.git/info/exclude` and global excludes so made are passed over, as before.
  const read = await readIgnoreFile(file, MAX_GITIGNORE_BYTES, how);
  if (read.read === "none") return { rules: list, cut: undefined };
  if (read.read === "not-read") {
    const kind = read.why === "unreadable" ? "" : ` (${read.why})`;
    return { rules: list, cut: `${name} could not be read${kind}`, unread: read.why };
  }
  // Bytes, not text: git's lines are bytes, and its `?` takes one byte of a name.
  const bytes = read.bytes;
  const lines = (bytes: Uint8Array) => bytes.reduce((n, b) => (b === 0x0a ? n + 1 : n), 1);
  try {
    const rules = addGitignore(list, bytes, base, budget, file);
    const cut = budget.cuts.find((c) => c.path === file);
    if (!read.whole) {
      return {
        rules,
        cut: `${name} is read up to ${MAX_GITIGNORE_BYTES / 1024} KiB, line ${lines(bytes)}`,
      };
    }
    if (cut === undefined) return { rules, cut: undefined };
    const what =
      cut.dropped > 0 ? "patterns past the limits are cut" : "a pattern matches nothing here";
    return { rules, cut: `${name} line ${cut.line ?? 1}: ${what}` };
  } catch {
    // A pattern the matcher cannot compile: the folder's other rules are lost,
    // its parents' still apply, and below it nothing passes.
    return { rules: list, cut: `${name} holds a pattern the matcher cannot take` };
  }
}
