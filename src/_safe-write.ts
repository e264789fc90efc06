// fs.promises, not node:fs/promises: the CLI bundle loads it at first use, where an
// import loads it with the CLI (twelve modules, readline's among them; ~75 page faults).
import {
  closeSync,
  constants,
  promises as fsp,
  lstatSync,
  mkdirSync,
  openSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { pushAll } from "./_arrays.js";
import { randomHex, sha256Hex } from "./_crypto.js";
import type { LstatKind } from "./_fs.js";
import { openedPath } from "./_io.js";
import { NAME_MAX } from "./_paths.js";
import { realpathSyncLinear } from "./_realpath.js";
import { SyspromptError } from "./types.js";

/**
 * Writing a file whose path a repository may control (a golden file, an
 * ejected section, `render -o`) without ever writing through a link.
 *
 * - The target must be missing or a regular file: a symbolic link, a folder,
 *   a FIFO, a socket or a device there is refused (`UnsafePathError`), and so
 *   is a link or a non-folder among the folders from `within` down to it.
 * - The bytes go to a fresh temporary file beside the target (created with
 *   O_EXCL, which refuses a link in its place), which is then renamed over the
 *   target: a rename replaces a link, it never follows it, and a reader sees
 *   the old file or the new one, never half of one.
 * - With `exclusive`, the temporary file is hard-linked to the target instead,
 *   which fails if anything appeared there since it was checked.
 *
 * - Its read twin, `readFileNoFollow`, is in the door for repository files (src/repo-files/).
 *
 * Nothing here prints; every refusal is an `UnsafePathError` naming the path.
 */

/**
 * The temporary files of the writes under way. A process that exits in the
 * middle of one (the CLI on Ctrl-C or a kill: 128 + the signal, through
 * `process.exit`) removes them in its "exit" hook, installed with the first
 * write; no signal handler is installed here: a host of the library owns its
 * signals, and a Node process that a signal ends without one runs no hook.
 */
const liveTemps = new Set<string>();
let exitHookInstalled = false;

/** Removes the temporary files of the writes under way (the "exit" hook). Synchronous: it runs at exit. */
function removeLiveTemps(): void {
  for (const temp of liveTemps) {
    try {
      unlinkSync(temp);
    } catch {
      // Not made yet (its open was under way), or renamed into place already.
    }
  }
  liveTemps.clear();
}

/** Options of {@link writeFileNoFollow} and {@link writeIfChanged}. */
export interface SafeWriteOptions {
  /**
   * A folder trusted as it is (the project's root, the scenarios' folder; it
   * may itself be reached through a link, and is created when missing). Every
   * folder below it down to the target's must be a real folder, not a link;
   * missing ones are created. Default: only the target's own folder is
   * checked (with lstat), and it must exist.
   */
  within?: string;
  /** Fail (code `target-exists`) when the target exists. Default: false: it is replaced. */
  exclusive?: boolean;
  /**
   * sysprompt's own file (the default export file): written 0600, and the
   * folders made on its way 0700, whatever was there. Default: a new file
   * takes 0644 less the umask, the folders made 0755 less the umask, a
   * replaced one keeps its read bits and its owner's write bit ({@link
   * keptMode}): no file or folder written is ever group or other writable.
   */
  private?: boolean;
}

/** What a write did. */
export type WriteOutcome = "written" | "unchanged";

/**
 * A target that cannot be written safely. `path` is the offending entry (the
 * target, or the folder on its way that is a link); `reason` the problem
 * without the path.
 */
export class UnsafePathError extends SyspromptError {
  constructor(
    code: "unsafe-target" | "target-exists" | "write-failed" | "unreadable" | "too-large",
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(code, `${path}: ${reason}`, options);
    this.name = "UnsafePathError";
  }
}

/**
 * What `lstat` says an entry is. The look-up is made at once, on this thread,
 * as src/_io.ts makes the gathering's: one look-up of a path, which no FIFO or
 * device can hold up (a mount that stops answering can, as it can any
 * look-up; docs/trust.md). Made through libuv's thread pool, the look-ups of a
 * render's two config files were its only calls there: they started the
 * pool's four threads and waited for each to start. A missing entry is no
 * exception (`throwIfNoEntry`); any other error is thrown, as before.
 */
export async function entryKind(path: string): Promise<LstatKind> {
  const s = lstatSync(path, { throwIfNoEntry: false });
  if (s === undefined) return "missing";
  if (s.isSymbolicLink()) return "link";
  if (s.isFile()) return "file";
  if (s.isDirectory()) return "dir";
  if (s.isFIFO()) return "fifo";
  if (s.isSocket()) return "socket";
  return "device";
}

/** How an entry that is not a regular file is named in a message. */
export const KIND_WORDS: Record<Exclude<LstatKind, "missing">, string> = {
  file: "a regular file",
  link: "a symbolic link",
  dir: "a folder",
  fifo: "a FIFO",
  socket: "a socket",
  device: "a device",
};

/** {@link writeProblem}'s reason for a folder on the way that is missing (and no `within` makes it). */
export const NO_SUCH_FOLDER = "there is no such folder";

/**
 * Why `path` cannot be written safely, or `undefined` when it can: what
 * {@link writeFileNoFollow} would refuse, checked without writing. Use it to
 * check every target of a batch before writing any.
 */
export async function writeProblem(
  path: string,
  options: Pick<SafeWriteOptions, "within"> = {},
): Promise<UnsafePathError | undefined> {
  const target = resolve(path);
  if (options.within !== undefined) {
    const base = await kindFollowed(options.within);
    if (base !== "dir" && base !== "missing") {
      return new UnsafePathError(
        "unsafe-target",
        resolve(options.within),
        `${KIND_WORDS[base]}, not a folder`,
      );
    }
  }
  for (const folder of foldersOnTheWay(target, options.within)) {
    const kind = await kindOrError(folder);
    if (kind instanceof UnsafePathError) return kind;
    if (kind === "missing") {
      if (options.within === undefined) {
        return new UnsafePathError("unsafe-target", folder, NO_SUCH_FOLDER);
      }
      return undefined; // it and what is below it will be created
    }
    if (kind !== "dir") {
      return new UnsafePathError(
        "unsafe-target",
        folder,
        `${KIND_WORDS[kind]}, not a folder: nothing is written through it`,
      );
    }
  }
  const kind = await kindOrError(target);
  if (kind instanceof UnsafePathError) return kind;
  if (kind === "file" || kind === "missing") return undefined;
  return new UnsafePathError(
    "unsafe-target",
    target,
    `${KIND_WORDS[kind]}, not a regular file: it is not written${kind === "link" ? " through" : ""}`,
  );
}

/**
 * Writes `data` to `path` by a temporary file and a rename, never following a
 * link (see the module comment).
 *
 * @throws UnsafePathError when the target or a folder on its way is not what
 * it must be, or the write fails.
 */
export async function writeFileNoFollow(
  path: string,
  data: string | Uint8Array,
  options: SafeWriteOptions = {},
): Promise<void> {
  const target = resolve(path);
  const problem = await writeProblem(target, options);
  if (problem) throw problem;
  // The folders this write makes, removed (deepest first) when it fails: a path too long for
  // the system left 2,038 empty folders behind (rev64d F2).
  const madeFolders: string[] = [];
  if (options.within !== undefined) {
    await makeFolders(target, options.within, options.private ? 0o700 : 0o755, madeFolders).catch(
      async (error: unknown) => {
        await removeFolders(madeFolders);
        throw error;
      },
    );
  }
  const folder = dirname(target);
  const expected = realFolder(folder, options.within);
  const name = tempName(basename(target));
  const temp = join(folder, name);
  let handle: FileHandle | undefined;
  // Known before the open, which an exit may interrupt: its name is this write's own (a random
  // part no repository can guess), so removing it at exit removes nothing else.
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", removeLiveTemps);
  }
  liveTemps.add(temp);
  let made = false;
  try {
    const kept = options.private ? 0o600 : keptMode(target);
    // A file replaced, or one of sysprompt's own, is made 0600 first: nothing wider meanwhile.
    handle = await fsp.open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      kept === undefined ? 0o644 : 0o600,
    );
    made = true;
    if (kept !== undefined) await handle.chmod(kept);
    // Made by its path: where the kernel says it was made (a folder on the way
    // swapped for a link just then puts it elsewhere). Elsewhere, it is removed
    // there (its name is this write's own) and the write refused.
    checkMadeWhere(handle.fd, folder, expected, name);
    await handle.writeFile(data);
    await handle.close();
    handle = undefined;
    // Checked again right before the swap: a folder replaced by a link meanwhile is refused.
    const again = await writeProblem(target, options);
    if (again) throw again;
    if (realpathSyncLinear(folder) !== expected) {
      throw new UnsafePathError("unsafe-target", folder, "the folder changed while it was written");
    }
    if (options.exclusive) {
      await fsp.link(temp, target).catch((error: unknown) => {
        if (isCode(error, "EEXIST")) {
          throw new UnsafePathError("target-exists", target, "already exists; it is left alone");
        }
        throw error;
      });
      await fsp.unlink(temp);
    } else {
      await fsp.rename(temp, target);
    }
  } catch (error) {
    await handle?.close().catch(() => undefined);
    // Only a file this write made: a failed O_EXCL open means the name was taken by another's.
    if (made) await fsp.unlink(temp).catch(() => undefined);
    await removeFolders(madeFolders);
    if (error instanceof UnsafePathError) throw error;
    throw new UnsafePathError("write-failed", target, `cannot write it: ${messageOf(error)}`, {
      cause: error,
    });
  } finally {
    liveTemps.delete(temp);
  }
}

/**
 * The name of a write's temporary file beside the file named `base`:
 * `.BASE.PID.HEX.tmp`, or, when that is longer than NAME_MAX (a legal name
 * of 234-255 bytes: the write failed on a name the user never gave, rev66d
 * F1), with a digest of `base` in its place.
 */
export function tempName(base: string): string {
  return `${tempPrefix(base)}${randomHex(TEMP_RANDOM_BYTES)}${TEMP_END}`;
}

/** The random part of a {@link tempName}, in bytes (twice as many hex digits). */
const TEMP_RANDOM_BYTES = 6;
const TEMP_END = ".tmp";

/** What every {@link tempName} of this process beside a file named `base` starts with. */
function tempPrefix(base: string): string {
  const tail = `.${process.pid}.`;
  const name = `.${base}${tail}`;
  const whole = Buffer.byteLength(name) + 2 * TEMP_RANDOM_BYTES + TEMP_END.length;
  return whole <= NAME_MAX ? name : `.${sha256Hex(base).slice(0, 16)}${tail}`;
}

/**
 * Whether `name` is one of this process's {@link tempName}s beside a file
 * named `base`: a watcher of that folder hears the write's temporary file
 * (made, written, renamed onto the file), which is no change of anyone's
 * (review rev92d F1: `watch --export --tree` re-rendered on it for ever).
 */
export function isTempNameOf(name: string, base: string): boolean {
  const prefix = tempPrefix(base);
  return (
    name.length === prefix.length + 2 * TEMP_RANDOM_BYTES + TEMP_END.length &&
    name.startsWith(prefix) &&
    name.endsWith(TEMP_END) &&
    /^[0-9a-f]+$/.test(name.slice(prefix.length, -TEMP_END.length))
  );
}

/**
 * Checks that the temporary file `name`, just created by its path in `folder`
 * and open as `fd`, lies where the kernel says it does (`/proc/self/fd`):
 * in `expected`, the real folder the checks found ({@link realFolder}). A
 * folder on the way swapped for a link just then puts it elsewhere: it is
 * removed there (its name is this write's own, so nothing else is) and an
 * UnsafePathError thrown. Where the system does not say, it passes.
 */
export function checkMadeWhere(fd: number, folder: string, expected: string, name: string): void {
  const made = openedPath(fd);
  if (made === undefined || made === join(expected, name)) return;
  try {
    unlinkSync(made);
  } catch {
    // Gone already (or swapped again): nothing of this write's stays there by its name.
  }
  throw new UnsafePathError("unsafe-target", folder, "the folder changed while it was written");
}

/**
 * Writes `data` to a fresh temporary file `name` in `folder` (O_EXCL, `mode`),
 * synchronously, checked by {@link checkMadeWhere} against `expected` before a
 * byte is written: the synchronous writers' (sysprompt's caches) half of
 * {@link writeFileNoFollow}. The caller renames it; a failure is thrown after
 * the descriptor is closed.
 */
export function writeTempFileSync(
  folder: string,
  expected: string,
  name: string,
  data: Uint8Array,
  mode: number,
): void {
  const fd = openSync(
    join(folder, name),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    mode,
  );
  try {
    checkMadeWhere(fd, folder, expected, name);
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * The real path `folder` has when no folder was swapped for a link: that of
 * `within` (trusted as it is) and the names below it, which were checked to
 * be real folders; without `within`, that of its parent and its own name.
 * Not `folder`'s realpath: a swap just then would make that the link's target.
 */
export function realFolder(folder: string, within: string | undefined): string {
  if (within === undefined) return join(realpathSyncLinear(dirname(folder)), basename(folder));
  return join(realpathSyncLinear(within), relative(resolve(within), folder));
}

/**
 * {@link writeFileNoFollow}, but only when the file does not already hold
 * exactly `data`: an unchanged file is not touched (its mtime stays, so a
 * watcher of it does not fire).
 *
 * @throws UnsafePathError as writeFileNoFollow.
 */
export async function writeIfChanged(
  path: string,
  data: string | Uint8Array,
  options: SafeWriteOptions = {},
): Promise<WriteOutcome> {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  const target = resolve(path);
  const problem = await writeProblem(target, options);
  if (problem) throw problem;
  if ((await sameBytes(target, bytes)) && !options.exclusive) {
    if (options.private) await keepPrivate(target);
    return "unchanged";
  }
  await writeFileNoFollow(target, bytes, options);
  return "written";
}

/**
 * Takes the group's and others' bits off sysprompt's own file `path` left
 * unchanged (an export file an older sysprompt wrote 0644), on the open
 * file, never through a link.
 */
async function keepPrivate(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fsp.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const s = await handle.stat();
    if (s.isFile() && (s.mode & 0o077) !== 0) await handle.chmod(s.mode & 0o600);
  } catch (error) {
    throw new UnsafePathError("write-failed", path, `cannot make it private: ${messageOf(error)}`, {
      cause: error,
    });
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Removes the regular file `path` (a link or anything else there is refused).
 *
 * @throws UnsafePathError
 */
export async function removeFileNoFollow(
  path: string,
  options: Pick<SafeWriteOptions, "within"> = {},
): Promise<void> {
  const target = resolve(path);
  const problem = await writeProblem(target, options);
  if (problem) throw problem;
  try {
    await fsp.unlink(target);
  } catch (error) {
    if (isCode(error, "ENOENT")) return;
    throw new UnsafePathError("write-failed", target, `cannot remove it: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * Whether the regular file `path` holds exactly `bytes`; reads at most one
 * byte more than that. A file the group or others may write is never the
 * same: it is written anew (a new file, by a rename, without those bits),
 * as a chmod would leave it open to whoever holds it open for writing.
 */
async function sameBytes(path: string, bytes: Uint8Array): Promise<boolean> {
  let handle: FileHandle | undefined;
  try {
    handle = await fsp.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const s = await handle.stat();
    if (!s.isFile() || s.size !== bytes.length || (s.mode & SHARED_WRITE) !== 0) return false;
    const buffer = Buffer.alloc(bytes.length + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === bytes.length && Buffer.compare(buffer.subarray(0, filled), bytes) === 0;
  } catch {
    // Missing or unreadable: it is (re)written, and writeFileNoFollow reports a real problem.
    return false;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The folders from `within` (included) down to the target's own, or only the target's own. */
function foldersOnTheWay(target: string, within: string | undefined): string[] {
  const folder = dirname(target);
  if (within === undefined) return [folder];
  const base = resolve(within);
  const rel = relative(base, folder);
  if (rel === ".." || rel.startsWith(`..${sep}`) || resolve(base, rel) !== folder) {
    throw new SyspromptError("bad-option", `within: ${target} is not inside ${base}`);
  }
  const out: string[] = [];
  let current = base;
  for (const part of rel === "" ? [] : rel.split(sep)) {
    current = join(current, part);
    out.push(current);
  }
  return out;
}

/**
 * The group's and others' write bits: no file or folder sysprompt writes has
 * them, whatever the umask or the old file's mode (review rev77d F4: under
 * umask 000 `export --out` made its folders 0777 and the file 0666, and an
 * existing 0666 file kept that mode, which any user could then write over
 * the prompt the agent reads at each start).
 */
export const SHARED_WRITE = 0o022;

/**
 * The mode a write over the regular file `target` gives the new one: the old
 * one's read bits and its owner's write bit, so a file you made private stays
 * so (the rename would give it 0644 less the umask). Never its group or
 * other write bits ({@link SHARED_WRITE}), nor its execute, setuid or sticky
 * bits: `-o .git/hooks/pre-commit` must not leave a runnable hook. Undefined
 * when there is no regular file there (a new file: 0644 less the umask).
 */
export function keptMode(target: string): number | undefined {
  const s = lstatSync(target, { throwIfNoEntry: false });
  return s?.isFile() ? s.mode & 0o666 & ~SHARED_WRITE : undefined;
}

/**
 * Makes the folder `path` and the missing folders above it (`mode`, less the
 * umask): one plain mkdir a level, from the nearest folder that exists (links
 * followed: the caller checks what must not be one) down, so at most one call
 * a component. Returns the folders made, in order. Never Node's recursive
 * mkdir: where mkdir says ENOENT below a folder that exists (`/proc`, which a
 * checkout's `.cache` may link to), it spins for ever in C++, deaf to signals
 * (rev66d F7). An existing entry on the way that is no folder, or a mkdir that
 * fails (ENOENT too: never retried), throws an UnsafePathError naming it; a
 * folder another process made meanwhile is taken.
 */
export function makeFolderPath(path: string, mode: number): string[] {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    const s = statOrThrow(at);
    if (s?.isDirectory()) break;
    if (s !== undefined) {
      throw new UnsafePathError("unsafe-target", at, "not a folder: nothing is made in it");
    }
    missing.push(at);
    if (dirname(at) === at) break;
  }
  const made: string[] = [];
  for (let i = missing.length - 1; i >= 0; i--) {
    const folder = missing[i] as string;
    try {
      mkdirSync(folder, { mode });
      made.push(folder);
    } catch (error) {
      if (isCode(error, "EEXIST") && statOrThrow(folder)?.isDirectory()) continue;
      const why = isCode(error, "ENOENT")
        ? "the folder above it exists but takes no new folder (ENOENT)"
        : messageOf(error);
      throw new UnsafePathError("write-failed", folder, `cannot create it: ${why}`, {
        cause: error,
      });
    }
  }
  return made;
}

/**
 * `stat` (links followed) of `at`, undefined when missing, or below a non-folder (ENOTDIR: the
 * walk up then meets it); another failure is an UnsafePathError.
 */
function statOrThrow(at: string) {
  try {
    return statSync(at, { throwIfNoEntry: false });
  } catch (error) {
    if (isCode(error, "ENOTDIR")) return undefined;
    throw new UnsafePathError("unsafe-target", at, `cannot look at it: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/** Creates the missing folders from `within` down to the target's (`mode`, less the umask), one at a time (never through a link below `within`). */
async function makeFolders(
  target: string,
  within: string,
  mode: number,
  made: string[],
): Promise<void> {
  pushAll(made, makeFolderPath(within, mode));
  for (const folder of foldersOnTheWay(target, within)) {
    try {
      await fsp.mkdir(folder, { mode });
      made.push(folder);
    } catch (error) {
      if (!isCode(error, "EEXIST")) {
        throw new UnsafePathError("write-failed", folder, `cannot create it: ${messageOf(error)}`, {
          cause: error,
        });
      }
    }
    const kind = await entryKind(folder);
    if (kind !== "dir") {
      throw new UnsafePathError(
        "unsafe-target",
        folder,
        `${kind === "missing" ? "gone" : KIND_WORDS[kind]}, not a folder: nothing is written through it`,
      );
    }
  }
}

/**
 * Removes `folders` (made by this write, in order) deepest first. `rmdir` removes only an
 * empty folder, never a link or what another process put there since.
 */
async function removeFolders(folders: readonly string[]): Promise<void> {
  for (let i = folders.length - 1; i >= 0; i--) {
    await fsp.rmdir(folders[i] as string).catch(() => undefined);
  }
}

/** What `path` is after following links (the trusted `within` folder). */
async function kindFollowed(path: string): Promise<LstatKind> {
  try {
    const s = await fsp.stat(path);
    return s.isDirectory() ? "dir" : s.isFile() ? "file" : "device";
  } catch (error) {
    if (isCode(error, "ENOENT")) return "missing";
    return "device";
  }
}

export async function kindOrError(path: string): Promise<LstatKind | UnsafePathError> {
  try {
    return await entryKind(path);
  } catch (error) {
    return new UnsafePathError("unsafe-target", path, `cannot look at it: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

export function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
