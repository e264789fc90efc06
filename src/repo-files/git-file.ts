import { isAbsolute, join, resolve } from "node:path";
import { readTextFileSync } from "../_fs.js";
import { lstat, realpath, stat, statOrUndefinedSync } from "../_io.js";
import { readCappedText } from "./capped-read.js";

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
  const text = read.text.replace(/\n+$/, "");
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
  const text = read.ok ? read.text.replace(/[\r\n]+$/, "") : "";
  const path = text.slice(GITDIR.length);
  if (!text.startsWith(GITDIR) || path === "" || path.includes("\n")) return undefined;
  // As git does, a relative path is relative to the folder holding `.git`.
  return resolve(dir, path);
}

const GITDIR = "gitdir: ";

/**
 * The path a worktree's git folder names back in its `gitdir` file (the
 * worktree's `.git`), or undefined: how a git folder says whose it is.
 */
export function worktreeBackLinkSync(gitFolder: string): string | undefined {
  const read = readTextFileSync(join(gitFolder, "gitdir"), MAX_GITFILE_BYTES);
  if (!read.ok) return undefined;
  const back = read.text.replace(/[\r\n]+$/, "");
  return back === "" || back.includes("\n") ? undefined : back;
}
