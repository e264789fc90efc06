import type { Dirent } from "node:fs";
import { join } from "node:path";
import { pushAll } from "../_arrays.js";
import {
  kindOfPath,
  MAX_TEXT_FILE_BYTES,
  type PathKind,
  realpathOrSelf,
  undecodableName,
} from "../_fs.js";
import {
  type IgnoreRules,
  ignoreCutDiagnostics,
  isIgnoredInKeptFolder,
  newPatternBudget,
  type PatternBudget,
} from "../_gitignore.js";
import { readlink } from "../_io.js";
import { nextTurn } from "../_pace.js";
import {
  type Enter,
  placeRefusal,
  type Reach,
  type Refusal,
  refusalDiagnostic,
  type WalkedFolder,
  type WalkSkip,
  walkFolders,
  withIgnoreFile,
} from "../repo-files/index.js";
import type { Diagnostic } from "../types.js";

/** The file that makes a folder one skill. */
export const SKILL_FILE = "SKILL.md";

/** A file the walk found that may be a skill. */
export interface SkillCandidate {
  filePath: string;
  /** A `.md` file lying directly in the root: a skill only if it has a description. */
  loose: boolean;
}

/**
 * Folders one skills root's walk enters at most. A skills folder holds some
 * dozens of skills; a link to `/` or to a home folder would otherwise walk
 * the whole disk, long after the render that asked has given up.
 */
export const MAX_SKILL_WALK_FOLDERS = 5000;

/**
 * Entries of one folder a skills walk lists at most. A skills folder holds
 * some dozens; a link to a folder of a million files would otherwise be
 * listed whole and sorted in one synchronous call past the deadline.
 */
export const MAX_SKILL_FOLDER_ENTRIES = 10_000;

export interface SkillWalkOptions {
  /** Stops the walk: nothing is read after it fires, and the walk rejects with its reason. */
  signal?: AbortSignal;
  /**
   * A project's skills root: its `.gitignore` files are read through the
   * door within it, and no folder whose real path the door would refuse (a
   * link out of the project, to `/usr` or `/`) is listed.
   */
  reach?: Reach | undefined;
}

/** Unreadable folders of one skills root named one by one; the rest are counted in one line. */
export const MAX_UNREADABLE_NAMED = 10;

/**
 * Lists the skill files under one skills root. A folder holding `SKILL.md` is
 * one skill and the walk stops there; otherwise it recurses, skipping
 * dot-entries, `node_modules` and whatever the `.gitignore` files along the way
 * ignore. Symlinks are followed; a folder whose real path was already visited
 * is not entered again, so link loops end. With `reach` (a project's root), a
 * folder whose real path leads where the door does not read is not entered
 * either, and one `skills-link-outside` warning counts them. Listings are sorted, so the order
 * is the same on every machine. At most {@link MAX_SKILL_WALK_FOLDERS} folders
 * are entered and the `.gitignore` patterns are capped (each cut is a
 * warning); `signal` is heard between reads and every few entries. The walk
 * is the repository walk's ({@link walkFolders}).
 */
export async function walkSkillsRoot(
  root: string,
  options: SkillWalkOptions = {},
): Promise<{ candidates: SkillCandidate[]; diagnostics: Diagnostic[] }> {
  const candidates: SkillCandidate[] = [];
  const diagnostics: Diagnostic[] = [];
  const budget = newPatternBudget();
  let limitHit = false;
  let unreadable = 0;
  const reach = options.reach;
  const out: string[] = [];
  // Folders another user planted where anyone may write (rev64a F1): not listed, each said once.
  const planted = new Map<string, Refusal>();

  // The state carried down is every .gitignore seen on the way, rebased onto the root.
  await walkFolders<IgnoreRules | undefined>(root, undefined, {
    signal: options.signal,
    // A project's folders stay in its project: what the door would refuse is not worth a listing.
    ...(reach === undefined
      ? { links: "follow" as const }
      : {
          links: "inside" as const,
          within: (path: string, real: string) => {
            if (placeRefusal(path, real, reach, false) !== undefined) return false;
            const refusal = reach.planted(real);
            if (refusal !== undefined) planted.set(path, refusal);
            return refusal === undefined;
          },
          onSkipped: (path: string, _rel: string, why: WalkSkip) => {
            const refusal = planted.get(path);
            if (refusal !== undefined) diagnostics.push(refusalDiagnostic(path, refusal));
            else if (why === "outside") out.push(path);
          },
        }),
    maxFolders: MAX_SKILL_WALK_FOLDERS,
    maxEntries: MAX_SKILL_FOLDER_ENTRIES,
    onCapped: (dir) => {
      diagnostics.push({
        level: "warning",
        code: "skills-folder-too-large",
        message: `the folder holds more than ${MAX_SKILL_FOLDER_ENTRIES} entries (a link to a large folder?): not searched for skills`,
        path: dir,
      });
    },
    onFolderLimit: () => {
      limitHit = true;
    },
    onUnreadable: async (dir, _rel, error) => {
      unreadable++;
      if (unreadable > MAX_UNREADABLE_NAMED) return;
      const missing = error.code === "ENOENT";
      diagnostics.push(
        (missing ? await undecodableName(dir, "folder") : undefined) ?? {
          level: "warning",
          code: "skills-dir-unreadable",
          message: `cannot list folder: ${error.message}`,
          path: dir,
        },
      );
    },
    visit: (folder) => skillFolder(folder, budget, candidates, diagnostics),
  });
  pushAll(diagnostics, ignoreCutDiagnostics(budget.cuts));
  const [first] = out;
  if (first !== undefined && reach !== undefined) {
    const refusal = placeRefusal(first, await realpathOrSelf(first), reach, false);
    const more =
      out.length > 1 ? `; ${out.length - 1} more folder(s) of this skills root lead out too` : "";
    diagnostics.push({
      level: "warning",
      code: "skills-link-outside",
      message: `not searched for skills: ${refusal?.message ?? "it leads out of the project"}${more}`,
      path: first,
    });
  }
  if (unreadable > MAX_UNREADABLE_NAMED) {
    diagnostics.push({
      level: "warning",
      code: "skills-dir-unreadable",
      message: `${unreadable - MAX_UNREADABLE_NAMED} more folders of this skills root cannot be read (a name not valid UTF-8, no permission) and are not searched for skills`,
      path: root,
    });
  }
  if (limitHit) {
    diagnostics.push({
      level: "warning",
      code: "skills-walk-limit",
      message: `the skills folder holds more than ${MAX_SKILL_WALK_FOLDERS} folders (a link to a large folder?); the walk stopped there, and skills in the folders not entered are not loaded`,
      path: root,
    });
  }
  return { candidates, diagnostics };
}

/**
 * One folder of a skills walk: its `.gitignore` read, its entries filtered;
 * a folder holding `SKILL.md` is one candidate and is not walked further,
 * otherwise its `.md` files (in the root) are loose candidates and its
 * subfolders are yielded, in order.
 */
async function* skillFolder(
  folder: WalkedFolder<IgnoreRules | undefined>,
  budget: PatternBudget,
  candidates: SkillCandidate[],
  diagnostics: Diagnostic[],
): AsyncGenerator<Enter<IgnoreRules | undefined>> {
  const { path: dir, rel, entries } = folder;
  let rules = folder.state;
  const kinds = new Map<string, PathKind>();
  const kindOf = async (entry: Dirent): Promise<PathKind> => {
    let kind = kinds.get(entry.name);
    if (kind === undefined) {
      kind = entry.isSymbolicLink()
        ? await kindOfPath(join(dir, entry.name))
        : entry.isDirectory()
          ? "dir"
          : entry.isFile()
            ? "file"
            : "other";
      kinds.set(entry.name, kind);
    }
    return kind;
  };

  // Read as the door and the workspace tree read it (bytes, never through a link, a FIFO never
  // opened to block, one not read whole said); before, its decoded text made a NUL the whole file
  // none and a lone CR a line end, so the list held skills git ignores (fx77d).
  if (entries.some((e) => e.name === ".gitignore")) {
    rules = await withIgnoreFile(rules, join(dir, ".gitignore"), rel, budget, MAX_TEXT_FILE_BYTES);
  }

  const kept: { entry: Dirent; kind: PathKind }[] = [];
  for (const entry of entries) {
    // A turn offered before each entry (a clock read within a slice), not every few hundred: its
    // ignore verdict tests every pattern in force at its full path's length, which a hostile root
    // makes thousands of characters (256 verdicts held the event loop 26 s of CPU).
    const turn = nextTurn(folder.signal);
    if (turn) await turn;
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const kind = await kindOf(entry);
    if (kind === "missing") {
      // A dangling link or one that loops on itself: nothing to read. A
      // SKILL.md is surely meant to be a skill, so it is not passed in silence.
      if (entry.name === SKILL_FILE) diagnostics.push(await brokenLink(join(dir, entry.name)));
      continue;
    }
    const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
    // The walk never enters an ignored folder, so only the name can match.
    if (isIgnoredInKeptFolder(rules, kind === "dir" ? `${path}/` : path)) continue;
    kept.push({ entry, kind });
  }

  // A SKILL.md that is not a regular file (a folder, a FIFO) still marks the
  // skill folder; reading it later reports why it cannot be loaded.
  if (kept.some(({ entry }) => entry.name === SKILL_FILE)) {
    candidates.push({ filePath: join(dir, SKILL_FILE), loose: false });
    return;
  }
  for (const { entry, kind } of kept) {
    if (kind === "dir") {
      yield { name: entry.name, state: rules };
    } else if (kind === "file" && rel === "" && entry.name.endsWith(".md")) {
      candidates.push({ filePath: join(dir, entry.name), loose: true });
    }
  }
}

/** A SKILL.md link that leads to no file. */
async function brokenLink(path: string): Promise<Diagnostic> {
  // Replaced by something else since it was listed: the target is unknown.
  const target = await readlink(path).catch(() => "?");
  return {
    level: "warning",
    code: "symlink-broken",
    message: `${SKILL_FILE} is a symbolic link to ${target}, which leads to no file (its target is missing, or the links loop); skipped`,
    path,
  };
}
