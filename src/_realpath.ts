import { closeSync, fstatSync, lstatSync, openSync, readlinkSync, realpathSync } from "node:fs";

/**
 * `O_PATH` (Linux): a descriptor that only names a file. Opening one reads
 * nothing, and has none of the side effects of opening a FIFO or a device.
 * Its value is the generic one, used by the architectures listed here.
 */
const O_PATH = 0o10000000;
const O_PATH_ARCHES = new Set([
  "arm",
  "arm64",
  "ia32",
  "loong64",
  "ppc64",
  "riscv64",
  "s390x",
  "x64",
]);
let procFd = process.platform === "linux" && O_PATH_ARCHES.has(process.arch);

/**
 * `realpathSync.native`, in time linear in what the kernel walks. glibc's
 * realpath asks the kernel about each component of the path in turn, each
 * time walking the path from the start, and starts over after each link: a
 * repository's link to a link to … (40 deep) of paths 1,900 folders long
 * took one call 9 s on the main thread, past any deadline. On Linux the path
 * is opened with `O_PATH` and its real path read from `/proc/self/fd`: one
 * walk, as any open makes (a few ms for the same chain). Elsewhere, or
 * without `/proc`, the native call. Fails as realpath fails (ENOENT, ELOOP,
 * ENOTDIR, EACCES, ENAMETOOLONG), with the code of the open.
 *
 * Whatever the path, the native call is never the answer to what `/proc`
 * says: a repository chooses names and lengths, and the native call is the
 * stall this avoids. A real path longer than PATH_MAX fails (ENAMETOOLONG),
 * as realpath fails on it; a name ending in " (deleted)" is the name unless
 * the file was removed since the open (then it is opened again, and after
 * {@link REMOVED_TRIES} removals it is missing); an open file with no path
 * (a pipe reached through `/proc/self/fd/0`) is missing.
 */
export function realpathSyncLinear(path: string): string {
  for (let tries = 0; procFd && tries < REMOVED_TRIES; tries++) {
    const fd = openAsRealpath(path);
    let seen: Seen;
    try {
      seen = seenAt(fd);
    } finally {
      closeSync(fd);
    }
    if (seen === "removed") continue;
    if (seen === "no-proc") break;
    if (seen === "too-long") throw realpathError("ENAMETOOLONG", "name too long", path);
    if (seen === "no-path") throw realpathError("ENOENT", "no such file or directory", path);
    return seen.real;
  }
  if (procFd) throw realpathError("ENOENT", "no such file or directory", path);
  return realpathSync.native(path);
}

/** A file opened and removed this many times in a row is missing. */
const REMOVED_TRIES = 3;

/** What /proc/self/fd adds to the path of a file removed while open. */
const DELETED = " (deleted)";

type Seen = { real: string } | "removed" | "too-long" | "no-path" | "no-proc";

/** What `/proc/self/fd` says of the open `fd`. */
function seenAt(fd: number): Seen {
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENAMETOOLONG") return "too-long";
    // No /proc (a container without it): the native call from now on.
    procFd = false;
    return "no-proc";
  }
  if (!real.startsWith("/")) return "no-path";
  if (real.endsWith(DELETED) && !namesOpen(real, fd)) return "removed";
  return { real };
}

/** True when `real` names the file open at `fd` (the same device and inode), not a removed one. */
function namesOpen(real: string, fd: number): boolean {
  try {
    const open = fstatSync(fd);
    const named = lstatSync(real, { throwIfNoEntry: false });
    return named !== undefined && named.dev === open.dev && named.ino === open.ino;
  } catch {
    return false;
  }
}

/** A failure worded as the native realpath words it. */
function realpathError(code: string, words: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${words}, realpath '${path}'`), {
    code,
    syscall: "realpath",
    path,
  });
}

/**
 * The `O_PATH` open of {@link realpathSyncLinear}, its failure worded as the
 * realpath it stands for (`ELOOP: …, realpath '<path>'`), as the native call
 * words it: a diagnostic quotes the message, and the reader asked for a real
 * path, not to open the file.
 */
function openAsRealpath(path: string): number {
  try {
    return openSync(path, O_PATH);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.syscall === "open") {
      e.syscall = "realpath";
      e.message = e.message.replace(/, open '/, ", realpath '");
    }
    throw error;
  }
}
