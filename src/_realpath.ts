import { closeSync, openSync, readlinkSync, realpathSync } from "node:fs";

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
 * ENOTDIR, EACCES), with the code of the open.
 */
export function realpathSyncLinear(path: string): string {
  if (!procFd) return realpathSync.native(path);
  const fd = openAsRealpath(path);
  let real: string | undefined;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // No /proc (a container without it): the native call from now on.
    procFd = false;
  } finally {
    closeSync(fd);
  }
  // A file removed meanwhile reads as "<path> (deleted)": the native call says what it is now.
  if (real === undefined || !real.startsWith("/") || real.endsWith(" (deleted)")) {
    return realpathSync.native(path);
  }
  return real;
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
