import { dirname, isAbsolute, join, resolve } from "node:path";
import { readTextFileSync } from "../_fs.js";
import {
  kindOfStats,
  lstat,
  lstatKindOrMissing,
  readlink,
  realpath,
  type StatKind,
  stat,
  statKind,
  statOrUndefinedSync,
} from "../_io.js";
import { realpathSyncLinear } from "../_realpath.js";
import { trimRuns } from "../_text.js";
import { readCappedText } from "./capped-read.js";
import { readFileNoFollow } from "./no-follow.js";

/**
 * A file that holds one path is a few hundred bytes; git itself refuses a
 * `.git` file much larger than a path. One longer than this is not read
 * further and is refused.
 */
export const MAX_GITFILE_BYTES = 16 * 1024;

/** What a path file said, or why it cannot be used (a sentence, for a diagnostic). */
export type PathFile = { ok: true; path: string } | { ok: false; problem: string };

/**
 * Reads a file git keeps a single path in, resolved against `base`: a `.git`
 * file (`prefix` "gitdir: "), or a worktree admin folder's `gitdir` and
 * `commondir` files (no prefix). As git does, only line ends are stripped
 * from the end of the path (spaces stay part of it). Only a regular file is
 * opened, never past {@link MAX_GITFILE_BYTES}: a FIFO, a device, a link to
 * `/dev/zero`, a huge or binary file gives a problem, never a hang.
 * `follow` false: a link is refused without being followed (git writes
 * these files itself, never as links).
 */
export async function readPathFile(
  file: string,
  base: string,
  options: { prefix?: string; follow: boolean },
): Promise<PathFile> {
  if (!options.follow) {
    const kind = await lstat(file).then(
      (s) => (s.isSymbolicLink() ? "a symbolic link" : s.isFile() ? "file" : "not a regular file"),
      () => "missing",
    );
    if (kind === "missing") return { ok: false, problem: "it cannot be found" };
    if (kind !== "file") return { ok: false, problem: `it is ${kind}; it is not read` };
  }
  // Not followed at the open either: a link swapped in after the lstat is refused.
  const read = await readCappedText(file, MAX_GITFILE_BYTES, { follow: options.follow });
  if (!read.ok) {
    const why = {
      missing: "it cannot be found",
      "not-file": "it is not a regular file; it is not read",
      binary: "it holds NUL bytes",
      unreadable: "it cannot be read",
    }[read.reason];
    return { ok: false, problem: why };
  }
  if (read.omitted > 0) {
    return { ok: false, problem: `it is over ${MAX_GITFILE_BYTES} bytes, too long to hold a path` };
  }
  const prefix = options.prefix ?? "";
  // readCappedText has turned CRLF into LF and dropped a BOM.
  const text = trimRuns(read.text, "\n", "end");
  if (!text.startsWith(prefix)) {
    return { ok: false, problem: `it does not start with "${prefix.trim()}"` };
  }
  const path = text.slice(prefix.length);
  if (path === "" || path.includes("\n")) {
    return { ok: false, problem: "it does not hold one path on one line" };
  }
  return { ok: true, path: isAbsolute(path) ? resolve(path) : resolve(base, path) };
}

export type Named =
  | { ok: true; path: string; line?: number }
  | { ok: false; problem: string; line?: number };

/** The git folder a `.git` entry names: itself (a folder), a link's target, or a `.git` file's path. */
export async function gitDirNamed(dotGit: string, dir: string): Promise<Named> {
  const entry = await lstat(dotGit).catch(() => undefined);
  if (entry === undefined) return { ok: false, problem: ".git cannot be looked at" };
  if (entry.isDirectory()) return { ok: true, path: dotGit };
  let file = dotGit;
  if (entry.isSymbolicLink()) {
    const target = await realpath(dotGit).catch(() => undefined);
    if (target === undefined) {
      return { ok: false, problem: ".git is a link that leads nowhere (missing, or a loop)" };
    }
    const kind = await stat(target).catch(() => undefined);
    if (kind?.isDirectory()) return { ok: true, path: target };
    if (!kind?.isFile()) {
      return { ok: false, problem: ".git is a link to something that is not a file or a folder" };
    }
    file = target;
  } else if (!entry.isFile()) {
    return { ok: false, problem: ".git is neither a folder nor a file (not opened)" };
  }
  // As git does, a relative path is relative to the folder holding `.git` (not a link's target).
  const read = await readPathFile(file, dir, { prefix: "gitdir: ", follow: false });
  if (!read.ok) return { ok: false, problem: `.git file not used: ${read.problem}`, line: 1 };
  return { ok: true, path: read.path, line: 1 };
}

/**
 * Synchronous form of {@link gitDirNamed}, for the door's synchronous reads:
 * the git folder `dotGit` names, or undefined when it names none (a link to a
 * file, a `.git` file that is not one `gitdir:` line of at most
 * {@link MAX_GITFILE_BYTES}).
 */
export function gitDirNamedSync(dotGit: string, dir: string): string | undefined {
  const entry = statOrUndefinedSync(dotGit, false);
  if (entry?.isDirectory()) return dotGit;
  if (entry?.isSymbolicLink()) {
    return statOrUndefinedSync(dotGit, true)?.isDirectory() ? dotGit : undefined;
  }
  if (!entry?.isFile()) return undefined;
  const read = readTextFileSync(dotGit, MAX_GITFILE_BYTES);
  const text = read.ok ? trimRuns(read.text, "\r\n", "end") : "";
  const path = text.slice(GITDIR.length);
  if (!text.startsWith(GITDIR) || path === "" || path.includes("\n")) return undefined;
  // As git does, a relative path is relative to the folder holding `.git`.
  return resolve(dir, path);
}

const GITDIR = "gitdir: ";

/**
 * The one path a file git writes itself holds (a worktree admin folder's
 * `gitdir` or `commondir`), as written, or undefined: a regular file of one
 * line, never a link.
 */
export function pathLineSync(file: string): string | undefined {
  if (!statOrUndefinedSync(file, false)?.isFile()) return undefined;
  const read = readTextFileSync(file, MAX_GITFILE_BYTES);
  if (!read.ok) return undefined;
  const line = trimRuns(read.text, "\r\n", "end");
  return line === "" || line.includes("\n") ? undefined : line;
}

/** The path a worktree's git folder names back in its `gitdir` file (the worktree's `.git`), as written. */
function worktreeBackLinkSync(gitFolder: string): string | undefined {
  return pathLineSync(join(gitFolder, "gitdir"));
}

/**
 * Whether the git folder `gitFolder` says it is the one of the work tree
 * whose `.git` entry is `dotGit`: a worktree's admin folder whose `gitdir`
 * file names `dotGit`, or a git folder (a submodule's `.git/modules/x`, which
 * git writes so) whose `core.worktree` names the folder holding `dotGit`.
 * How a git folder says whose it is: a `.git` file or link a repository wrote
 * itself (`gitdir: /home`, a link to your clone's `.git` or to
 * `~/.git/modules/x`) names a folder that does not name it back. As git
 * does, a relative path in either is relative to the git folder (its real
 * path: git 2.48's `worktree.useRelativePaths` writes `../../../../wt/.git`).
 * Compared as written and by real path.
 */
export function namesBack(gitFolder: string, dotGit: string): boolean {
  let base: string;
  try {
    base = realpathSyncLinear(gitFolder);
  } catch {
    return false;
  }
  const back = worktreeBackLinkSync(base);
  if (back !== undefined && samePath(resolve(base, back), dotGit)) return true;
  const tree = coreWorktreeSync(base);
  return typeof tree === "string" && samePath(resolve(base, tree), dirname(dotGit));
}

/** Whether two paths name the same place, as written or by real path. */
export function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSyncLinear(a) === realpathSyncLinear(b);
  } catch {
    return false;
  }
}

/** A git folder's `config` is read to this size; a larger one is not looked into. */
const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * The `core.worktree` a git folder's `config` sets (the last one, as git
 * takes it), `null` when it sets none, or "unsure" when the file cannot tell
 * (unreadable, over {@link MAX_CONFIG_BYTES}, an `include` that could set it,
 * a value git would refuse or that runs on to the next line, an empty one).
 * A value is read as git reads it ({@link configValue}): git quotes the path
 * of a submodule whose name holds `#`, `;` or a quote.
 */
export function coreWorktreeSync(gitFolder: string): string | null | "unsure" {
  const value = coreSettingSync(gitFolder, "worktree");
  return value === "" ? "unsure" : value;
}

/**
 * Whether a git folder's `config` says it is bare (`core.bare` true), false
 * when it does not, "unsure" as {@link coreWorktreeSync}.
 */
export function coreBareSync(gitFolder: string): boolean | "unsure" {
  const value = coreSettingSync(gitFolder, "bare");
  if (value === null) return false;
  if (value === "unsure") return value;
  const v = value.toLowerCase();
  if (["true", "yes", "on", "1"].includes(v)) return true;
  return ["false", "no", "off", "0", ""].includes(v) ? false : "unsure";
}

/**
 * The `core.excludesFile` a git folder's `config` sets (the last one, as
 * written: `~/` not expanded), `null` when it sets none, "unsure" as
 * {@link coreWorktreeSync} (review rev104a F1).
 */
export function coreExcludesFileSync(gitFolder: string): string | null | "unsure" {
  return coreSettingSync(gitFolder, "excludesfile");
}

/** The last value of `core.<key>` (lower case) in a git folder's `config`: see {@link coreWorktreeSync}. */
function coreSettingSync(gitFolder: string, key: string): string | null | "unsure" {
  const file = join(gitFolder, "config");
  const kind = statOrUndefinedSync(file, false);
  if (kind === undefined) return null;
  if (!kind.isFile()) return "unsure";
  const read = readTextFileSync(file, MAX_CONFIG_BYTES);
  if (!read.ok) return "unsure";
  let inCore = false;
  let found: string | null = null;
  for (const raw of read.text.split("\n")) {
    let line = raw.trim();
    if (line.startsWith("[")) {
      const end = line.indexOf("]");
      if (end < 0) return "unsure";
      const name = line.slice(1, end).trim().toLowerCase();
      if (name.startsWith("include")) return "unsure";
      inCore = name === "core";
      line = line.slice(end + 1).trim();
    }
    const entry = inCore ? configEntry(line) : undefined;
    if (entry === undefined || entry.key.toLowerCase() !== key) continue;
    // A line break JavaScript sees (U+2028) is no line end to git: the line cannot be read here.
    if (/[\r\u2028\u2029]/.test(line)) return "unsure";
    // A key with no `=` is boolean true (`bare` alone); `worktree` alone is an error to git.
    if (!entry.rest.startsWith("=")) {
      if (key !== "bare" || !(entry.rest === "" || "#;".includes(entry.rest[0] ?? ""))) {
        return "unsure";
      }
      found = "true";
      continue;
    }
    const value = configValue(entry.rest.slice(1));
    if (value === undefined) return "unsure";
    found = value;
  }
  return found;
}

/**
 * A config line's key and what follows it, blanks between them dropped;
 * undefined when the line does not start with a key. Split by hand, not with
 * one regular expression: `key\s*(=?)(.*)$` backtracks over every length of a
 * long key when a U+2028 stops `.` (quadratic; review rev68b F1).
 */
function configEntry(line: string): { key: string; rest: string } | undefined {
  const key = /^[A-Za-z][A-Za-z0-9-]*/.exec(line)?.[0];
  return key === undefined ? undefined : { key, rest: line.slice(key.length).trimStart() };
}

/**
 * A config value as git reads one written on one line (its `parse_value`):
 * leading and trailing blanks outside double quotes dropped, the quotes
 * removed, `\\` `\"` `\n` `\t` `\b` escapes, a `#` or `;` outside quotes
 * starting a comment. Undefined for what git refuses (an unknown escape, a
 * quote left open) and for a backslash at the line's end (the value runs on
 * to the next line; git never writes one so).
 */
export function configValue(text: string): string | undefined {
  const escapes: Record<string, string> = { "\\": "\\", '"': '"', n: "\n", t: "\t", b: "\b" };
  let out = "";
  let quoted = false;
  let trimAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (!quoted && /[ \t\v\f\r]/.test(c)) {
      if (trimAt === 0) trimAt = out.length;
      if (out.length > 0) out += c;
      continue;
    }
    if (!quoted && (c === "#" || c === ";")) break;
    trimAt = 0;
    if (c === "\\") {
      i++;
      const escaped = escapes[text.charAt(i)];
      if (escaped === undefined) return undefined;
      out += escaped;
    } else if (c === '"') {
      quoted = !quoted;
    } else {
      out += c;
    }
  }
  if (quoted) return undefined;
  return trimAt > 0 ? out.slice(0, trimAt) : out;
}

/**
 * Whether `dir` is a git folder as git tells one (its `is_git_directory`): a
 * `HEAD` (a file or a link), and `objects/` and `refs/` folders, or a
 * `commondir` file naming where they are (a worktree's admin folder). One
 * `lstat` of `HEAD` where there is none, as in almost every folder.
 */
export function isGitFolderSync(dir: string): boolean {
  const kind = (name: string, follow: boolean) => {
    const stats = statOrUndefinedSync(join(dir, name), follow);
    return stats && kindOfStats(stats);
  };
  const head = kind("HEAD", false);
  if (head !== "file" && head !== "link") return false;
  return hasGitParts((name) => kind(name, true));
}

/** Asynchronous twin of {@link isGitFolderSync}, noting the kinds alone (a `HEAD` moves with every commit). */
export async function isGitFolder(dir: string): Promise<boolean> {
  const head = await lstatKindOrMissing(join(dir, "HEAD")).catch(() => undefined);
  if (head !== "file" && head !== "link") return false;
  const names = ["objects", "refs", "commondir"];
  const kinds = await Promise.all(names.map((n) => statKind(join(dir, n)).catch(() => undefined)));
  return hasGitParts((name) => kinds[names.indexOf(name)]);
}

/** What git reads of a `HEAD` to judge it (its `validate_headref` reads 255 bytes). */
const HEAD_BYTES = 255;

/**
 * Whether git itself would take `dir` for a git folder and use it, as its
 * setup.c `is_git_directory` judges one (stricter than {@link isGitFolder},
 * which notes the kinds alone): `HEAD` a link whose target starts `refs/`, or
 * a regular file that starts `ref:`, spaces, `refs/`, or with an object id
 * (40 hex digits); and `objects/` and `refs/` folders in `dir`, or in the
 * folder its `commondir` file names (one path, relative to `dir`; a
 * `commondir` git cannot read, an empty one, stops git). Anything else
 * (`HEAD` of other bytes, an empty `commondir`, one naming a folder without
 * them) git passes over, and so the folders around it keep their rules.
 */
export async function isUsableGitFolder(dir: string): Promise<boolean> {
  if (!(await validHead(join(dir, "HEAD")))) return false;
  const commondir = join(dir, "commondir");
  let common = dir;
  if ((await statKind(commondir).catch(() => undefined)) !== undefined) {
    const named = await readPathFile(commondir, dir, { follow: true });
    if (!named.ok) return false;
    common = named.path;
  }
  const kinds = await Promise.all(
    ["objects", "refs"].map((n) => statKind(join(common, n)).catch(() => undefined)),
  );
  return kinds.every((k) => k === "dir");
}

/** A `HEAD` git accepts ({@link isUsableGitFolder}). */
async function validHead(head: string): Promise<boolean> {
  const kind = await lstatKindOrMissing(head).catch(() => undefined);
  if (kind === "link") {
    return (await readlink(head).catch(() => "")).startsWith("refs/");
  }
  if (kind !== "file") return false;
  // A regular file only, never a FIFO or a device; a HEAD past the cap is none git writes.
  const bytes = await readFileNoFollow(head, MAX_GITFILE_BYTES, { anyNames: true }).catch(
    () => null,
  );
  if (bytes === null) return false;
  // As git reads it: its first 255 bytes, a C string to the first NUL.
  const first = bytes.subarray(0, HEAD_BYTES);
  const end = first.indexOf(0);
  const text = (end < 0 ? first : first.subarray(0, end)).toString("latin1");
  return /^ref:[ \t\n\r]*refs\//.test(text) || /^[0-9a-fA-F]{40}/.test(text);
}

function hasGitParts(kind: (name: string) => StatKind | undefined): boolean {
  return kind("commondir") === "file" || (kind("objects") === "dir" && kind("refs") === "dir");
}
