import {
  type Dirent,
  lstat as lstatCb,
  readdir as readdirCb,
  type Stats,
  stat as statCb,
} from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { readTextFile } from "../_fs.js";
import { addGitignore, type Ignore, isIgnored } from "../_gitignore.js";

/** The instruction file the walk collects from folders below the root. */
export const AGENTS_FILE = "AGENTS.md";

export type EntryKind = "dir" | "file" | "link" | "other";

export interface ListedEntry {
  name: string;
  kind: EntryKind;
}

/** What one depth-bounded walk found. Nothing in it is sorted yet. */
export interface TreeListing {
  /**
   * The kept children of every folder whose children the tree shows, keyed by
   * the folder's "/"-separated path below the root ("" is the root itself).
   */
  folders: Map<string, ListedEntry[]>;
  /** AGENTS.md files in folders at depth 1 … `agentsDepth`, as paths below the root. */
  agentsMd: string[];
}

export interface WalkOptions {
  /** Folders above this depth have their children listed (the tree's depth). */
  listDepth: number;
  /** The deepest folder searched for AGENTS.md (the root is depth 0). */
  agentsDepth: number;
  /** Stops the walk: no folder is read after it fires, and the walk rejects with its reason. */
  signal?: AbortSignal;
}

/**
 * Walks `root` no deeper than the tree and the AGENTS.md search need. Hidden
 * entries, `node_modules` and whatever git would ignore are never entered:
 * the `.gitignore` files from the repository root down to `root` (and the
 * repository's `.git/info/exclude`) apply from the start, and each nested
 * `.gitignore` joins the rules for its own folder as the walk reaches it.
 * Symlinks are listed, never followed into.
 */
export async function walkTree(root: string, options: WalkOptions): Promise<TreeListing> {
  const { listDepth, agentsDepth, signal } = options;
  const folders = new Map<string, ListedEntry[]>();
  const agentsMd: string[] = [];
  const deepest = Math.max(listDepth - 1, agentsDepth);
  const { prefix, rules: inherited } = await inheritedRules(root);
  const stop = () => {
    if (signal?.aborted) throw signal.reason;
  };

  const walk = async (dir: string, rel: string, depth: number, rules: Ignore | undefined) => {
    stop();
    if (depth >= listDepth && depth === deepest) {
      // The last level only matters for its AGENTS.md: one stat instead of a listing.
      await probeAgentsFile(dir, rel, prefix, rules, agentsMd);
      return;
    }
    // Unreadable or gone since its parent was listed: shown without children.
    const entries = await listFolder(dir);
    stop();
    if (entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      // git never follows a symlinked .gitignore; neither do we.
      const read = await readTextFile(join(dir, ".gitignore"));
      if (read.ok) rules = addGitignore(rules, read.text, prefix + rel);
    }
    const listed = depth < listDepth;
    const kept: ListedEntry[] = [];
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith(".") || name === "node_modules") continue;
      const isDir = entry.isDirectory();
      const isAgents = name === AGENTS_FILE && depth >= 1 && depth <= agentsDepth;
      // Below the shown levels only folders and AGENTS.md matter: skip the rest unmatched.
      if (!listed && !isDir && !isAgents) continue;
      const path = rel === "" ? name : `${rel}/${name}`;
      if (isIgnored(rules, prefix + (isDir ? `${path}/` : path))) continue;
      const kind: EntryKind = isDir
        ? "dir"
        : entry.isFile()
          ? "file"
          : entry.isSymbolicLink()
            ? "link"
            : "other";
      if (listed) kept.push({ name, kind });
      if (isAgents) below.push(addAgentsFile(join(dir, name), path, kind, agentsMd));
      if (isDir && depth < deepest) below.push(walk(join(dir, name), path, depth + 1, rules));
    }
    if (listed) folders.set(rel, kept);
    await Promise.all(below);
  };

  await walk(root, "", 0, inherited);
  return { folders, agentsMd };
}

/**
 * Records `rel/AGENTS.md` when it is a regular file (or a link to one) that the
 * rules, together with a `.gitignore` in the same folder, do not ignore.
 */
async function probeAgentsFile(
  dir: string,
  rel: string,
  prefix: string,
  rules: Ignore | undefined,
  out: string[],
) {
  const path = `${rel}/${AGENTS_FILE}`;
  // Missing (the usual case), a dangling link or a loop: nothing to record.
  if (!(await statOf(join(dir, AGENTS_FILE), true))?.isFile()) return;
  if ((await statOf(join(dir, ".gitignore"), false))?.isFile()) {
    const read = await readTextFile(join(dir, ".gitignore"));
    if (read.ok) rules = addGitignore(rules, read.text, prefix + rel);
  }
  if (!isIgnored(rules, prefix + path)) out.push(path);
}

/** Records an AGENTS.md that is a regular file, or a symlink to one (never opened). */
async function addAgentsFile(path: string, rel: string, kind: EntryKind, out: string[]) {
  // A dangling or looping link is no instruction file.
  if (kind === "file" || (kind === "link" && (await statOf(path, true))?.isFile())) out.push(rel);
}

/**
 * The ignore rules that already hold at `root`: those of the `.gitignore` files
 * between the repository root (the nearest ancestor holding `.git`) and
 * `root`, plus `.git/info/exclude`. Paths are then checked as
 * `prefix + path below root`, `prefix` being `root` relative to the repository.
 * Outside a repository only the files at and below `root` count.
 */
async function inheritedRules(root: string): Promise<{ prefix: string; rules?: Ignore }> {
  const repo = await findRepository(root);
  if (repo === undefined || repo === root) {
    return repo === undefined ? { prefix: "" } : { prefix: "", ...(await excludeRules(root)) };
  }
  const prefix = `${posixRelative(repo, root)}/`;
  const chain: string[] = [];
  for (let dir = dirname(root); dir !== repo; dir = dirname(dir)) chain.unshift(dir);
  chain.unshift(repo);
  let { rules } = await excludeRules(repo);
  const reads = await Promise.all(chain.map((dir) => readTextFile(join(dir, ".gitignore"))));
  reads.forEach((read, i) => {
    const dir = chain[i];
    if (read.ok && dir !== undefined) {
      rules = addGitignore(rules, read.text, posixRelative(repo, dir));
    }
  });
  return rules ? { prefix, rules } : { prefix };
}

async function excludeRules(repo: string): Promise<{ rules?: Ignore }> {
  const read = await readTextFile(join(repo, ".git", "info", "exclude"));
  return read.ok ? { rules: addGitignore(undefined, read.text, "") } : {};
}

async function findRepository(root: string): Promise<string | undefined> {
  for (let dir = root; ; ) {
    if (await statOf(join(dir, ".git"), false)) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function posixRelative(from: string, to: string): string {
  return relative(from, to).split(sep).join("/");
}

// The callback forms, not fs/promises: the walk makes thousands of calls, most
// of the probes fail with ENOENT, and a rejected promise costs several times a
// callback with an error (measured on the 100k-file bench tree: 645 probes in
// ~8 ms against ~30 ms).

/** The folder's entries, or none when it cannot be listed. */
function listFolder(dir: string): Promise<Dirent[]> {
  return new Promise((done) => {
    readdirCb(dir, { withFileTypes: true }, (error, entries) => done(error ? [] : entries));
  });
}

/** `stat` (following links) or `lstat`; undefined for anything that fails. */
function statOf(path: string, follow: boolean): Promise<Stats | undefined> {
  return new Promise((done) => {
    (follow ? statCb : lstatCb)(path, (error, stats) => done(error ? undefined : stats));
  });
}
