import { isUtf8 } from "node:buffer";
import { closeSync, constants, type Dir, fstatSync, openSync, readSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { normalizeText } from "./_frontmatter.js";
import type { ReadHandle as FileHandle, StatKind } from "./_io.js";
import { open, opendirSync, realpath, stat, statKind } from "./_io.js";
import type { Diagnostic } from "./types.js";

/** Files larger than this are not read into the prompt. */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

/** How far into a file {@link decodeText} looks for a NUL byte. */
const BINARY_SNIFF_BYTES = 8000;

export type TextFileResult =
  | { ok: true; text: string; diagnostics: Diagnostic[] }
  | {
      ok: false;
      reason: "missing" | "not-file" | "binary" | "too-large" | "unreadable";
      diagnostics: Diagnostic[];
    };

/**
 * What a path is, in the one vocabulary the code uses: `stat` (links followed)
 * says file, dir, other (a FIFO, a socket, a device) or missing.
 */
export type PathKind = "file" | "dir" | "other" | "missing";

/** An entry as a listing or `lstat` sees it: a link is a link, not followed. */
export type EntryKind = StatKind;

/** What `lstat` says, with `other` told apart, for a message that names what it refused. */
export type LstatKind = Exclude<EntryKind, "other"> | "fifo" | "socket" | "device" | "missing";

/**
 * What kind of thing is at `path`, following symlinks. Never opens the file, so
 * a FIFO or a socket cannot block us.
 */
export function kindOfPathSync(path: string): PathKind {
  try {
    const s = statSync(path);
    return s.isFile() ? "file" : s.isDirectory() ? "dir" : "other";
  } catch {
    // ENOENT, ELOOP (symlink loop), EACCES on a parent: all mean "nothing usable here".
    return "missing";
  }
}

/** {@link kindOfPathSync}, noted by a prompt session as the kind alone (see `statKind`). */
export async function kindOfPath(path: string): Promise<PathKind> {
  try {
    const kind = await statKind(path);
    // A followed stat never gives a link.
    return kind === "link" ? "other" : kind;
  } catch {
    return "missing";
  }
}

/**
 * The real path of `path`, or `path` itself when it cannot be resolved (gone,
 * a dangling link): reading it then reports the problem, and as a key for
 * "already seen" the path is good enough.
 */
export async function realpathOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    // See above: the caller's read reports why.
    return path;
  }
}

/**
 * Decodes file bytes as UTF-8 text: BOM stripped, CRLF normalised. Binary data
 * (a NUL byte early on) is refused; invalid UTF-8 is decoded with U+FFFD and a
 * warning.
 */
export function decodeText(bytes: Uint8Array, path: string): TextFileResult {
  const wide = wideText(path, bytes);
  if (wide) return wide;
  if (holdsNul(bytes, BINARY_SNIFF_BYTES)) return binaryFile(path, "binary file skipped");
  const diagnostics: Diagnostic[] = [];
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("utf-8").decode(bytes);
    diagnostics.push({
      level: "warning",
      code: "file-encoding",
      message: "file is not valid UTF-8; invalid bytes were replaced with U+FFFD",
      path,
    });
  }
  return { ok: true, text: normalizeText(text), diagnostics };
}

/**
 * The one binary test: bytes that hold a NUL among the first `within` are not
 * text (UTF-8 text never holds one). A whole file is sniffed at its head; a
 * capped read looks at every byte it keeps.
 */
export function holdsNul(bytes: Uint8Array, within: number): boolean {
  return bytes.subarray(0, within).includes(0);
}

/** The byte-order marks of the UTF-16 and UTF-32 encodings, longest first (UTF-32 LE starts as UTF-16 LE). */
const WIDE_BOMS: readonly { name: string; bytes: readonly number[] }[] = [
  { name: "UTF-32", bytes: [0xff, 0xfe, 0, 0] },
  { name: "UTF-32", bytes: [0, 0, 0xfe, 0xff] },
  { name: "UTF-16", bytes: [0xff, 0xfe] },
  { name: "UTF-16", bytes: [0xfe, 0xff] },
];

/**
 * A file that starts with a UTF-16 or UTF-32 byte-order mark (as Windows
 * editors save "Unicode" text), refused as text in another encoding, named,
 * with the fix: every reader takes UTF-8 (the caps, cuts and escapes count
 * its bytes), and such a file read as bytes was "binary (NUL bytes)", a reason
 * that did not say what to do (review rev60b F4). Undefined for any other file.
 */
export function wideText(
  path: string,
  bytes: Uint8Array,
): { ok: false; reason: "binary"; diagnostics: Diagnostic[] } | undefined {
  const bom = WIDE_BOMS.find((b) => b.bytes.every((byte, i) => bytes[i] === byte));
  if (bom === undefined) return undefined;
  const mark = bom.bytes.map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ");
  const message = `${bom.name} text (byte-order mark ${mark}), not UTF-8: skipped; save it as UTF-8`;
  return {
    ok: false,
    reason: "binary",
    diagnostics: [{ level: "warning", code: "file-encoding", message, path }],
  };
}

/** A binary file refused, with the `file-binary` warning. */
export function binaryFile(
  path: string,
  message: string,
): { ok: false; reason: "binary"; diagnostics: Diagnostic[] } {
  return {
    ok: false,
    reason: "binary",
    diagnostics: [{ level: "warning", code: "file-binary", message, path }],
  };
}

export function statFailure(
  path: string,
  kind: "missing" | "other" | "dir",
  size?: number,
  maxBytes = MAX_TEXT_FILE_BYTES,
): TextFileResult {
  if (kind === "missing") {
    return {
      ok: false,
      reason: "missing",
      diagnostics: [{ level: "warning", code: "file-missing", message: "file not found", path }],
    };
  }
  if (size !== undefined) {
    return {
      ok: false,
      reason: "too-large",
      diagnostics: [
        {
          level: "warning",
          code: "file-too-large",
          message: `file is ${size} bytes, over the ${maxBytes}-byte limit; skipped`,
          path,
        },
      ],
    };
  }
  return notRegularFile(path, kind === "dir");
}

/** A folder, FIFO, socket or device refused before it is opened, with the `file-not-regular` warning. */
export function notRegularFile(
  path: string,
  isDir: boolean,
): { ok: false; reason: "not-file"; diagnostics: Diagnostic[] } {
  return {
    ok: false,
    reason: "not-file",
    diagnostics: [
      {
        level: "warning",
        code: "file-not-regular",
        message: `${isDir ? "a folder" : "not a regular file"}; skipped without opening it`,
        path,
      },
    ],
  };
}

/** What a byte that is not UTF-8 decodes to in a name from a folder listing. */
const REPLACEMENT = "\uFFFD";

/**
 * Most entries of a folder listed to find its names that are not UTF-8: past
 * it, the caller's own words (missing) stand.
 */
const MAX_NAME_LISTING = 10_000;

/** Folders whose undecodable names are remembered, the most recent ones. */
const MAX_NAME_FOLDERS = 64;

/**
 * The undecodable names (as a listing decodes them) of the folders looked at
 * lately, with the folder's stat they were listed under: a folder is listed
 * once for all its names, not once a name (5,000 such names in one folder
 * were 25 million entries listed), and again only when it changed.
 */
const undecodableNames = new Map<string, { stamp: string; names: ReadonlySet<string> | null }>();

/**
 * A listed entry whose name is not UTF-8 came out of the listing with U+FFFD
 * in place of the bad bytes, and that name opens nothing: "not found" would
 * send the user looking for a file that is there. Only for a name that holds
 * U+FFFD and whose folder has such an entry; never on the normal path.
 */
export async function undecodableName(
  path: string,
  what: "file" | "folder",
): Promise<Diagnostic | undefined> {
  return undecodableNameSync(path, what);
}

/** Synchronous twin of {@link undecodableName}. */
export function undecodableNameSync(path: string, what: "file" | "folder"): Diagnostic | undefined {
  const name = basename(path);
  if (!name.includes(REPLACEMENT)) return undefined;
  if (!namesNotUtf8(dirname(path))?.has(name)) return undefined;
  return {
    level: "warning",
    code: "name-not-utf8",
    message: `the name of this ${what} is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by that name; rename it`,
    path,
  };
}

/** The names of `dir`'s entries that are not UTF-8, as decoded; null when it cannot be listed or is over the cap. */
function namesNotUtf8(dir: string): ReadonlySet<string> | null {
  let stamp: string;
  try {
    const s = statSync(dir);
    stamp = `${s.dev}:${s.ino}:${s.mtimeMs}:${s.ctimeMs}:${s.size}`;
  } catch {
    // The folder cannot be looked at either: the caller's own message stands.
    return null;
  }
  const known = undecodableNames.get(dir);
  if (known?.stamp === stamp) return known.names;
  const names = listNamesNotUtf8(dir);
  if (undecodableNames.size >= MAX_NAME_FOLDERS) undecodableNames.clear();
  undecodableNames.set(dir, { stamp, names });
  return names;
}

function listNamesNotUtf8(dir: string): Set<string> | null {
  let handle: Dir | undefined;
  try {
    // Names as bytes (Node takes "buffer" here, though its types do not say so).
    handle = opendirSync(dir, { encoding: "buffer" as BufferEncoding, bufferSize: 256 });
    const names = new Set<string>();
    for (let listed = 0; ; listed++) {
      const entry = handle.readSync();
      if (entry === null) return names;
      if (listed === MAX_NAME_LISTING) return null;
      const bytes = entry.name as unknown as Buffer;
      if (!isUtf8(bytes)) names.add(bytes.toString());
    }
  } catch {
    // Unlistable: the caller's own message stands.
    return null;
  } finally {
    try {
      handle?.closeSync();
    } catch {
      // Already closed: nothing to release.
    }
  }
}

export function nameFailure(diagnostic: Diagnostic): TextFileResult {
  return { ok: false, reason: "unreadable", diagnostics: [diagnostic] };
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

export function readFailure(path: string, error: unknown): TextFileResult {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  return {
    ok: false,
    reason: code === "ENOENT" ? "missing" : "unreadable",
    diagnostics: [
      {
        level: "warning",
        code: code === "ENOENT" ? "file-missing" : "file-unreadable",
        message: `cannot read file: ${error instanceof Error ? error.message : String(error)}`,
        path,
      },
    ],
  };
}

/** Opening a FIFO with this flag returns at once instead of waiting for a writer. */
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Reads a regular text file without ever opening anything else (folders,
 * FIFOs, sockets, devices). Every failure is a value with a diagnostic.
 * The path is stat'ed first (for the failure's words), then opened without
 * blocking and checked again on the open file, from which at most
 * `maxBytes + 1` bytes are read: a file swapped in between for a FIFO, a
 * link to /dev/zero or a larger file can neither block nor flood the read.
 */
export async function readTextFile(
  path: string,
  maxBytes = MAX_TEXT_FILE_BYTES,
): Promise<TextFileResult> {
  try {
    const s = await stat(path);
    if (!s.isFile()) return statFailure(path, s.isDirectory() ? "dir" : "other");
    if (s.size > maxBytes) return statFailure(path, "other", s.size, maxBytes);
  } catch (error) {
    const name = isMissing(error) ? await undecodableName(path, "file") : undefined;
    return name ? nameFailure(name) : readFailure(path, error);
  }
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | O_NONBLOCK);
    const s = await handle.stat();
    if (!s.isFile()) return statFailure(path, s.isDirectory() ? "dir" : "other");
    if (s.size > maxBytes) return statFailure(path, "other", s.size, maxBytes);
    const bytes = await readHead(handle, maxBytes + 1, s.size);
    return bytes.length > maxBytes
      ? statFailure(path, "other", bytes.length, maxBytes)
      : decodeText(bytes, path);
  } catch (error) {
    return readFailure(path, error);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Smallest buffer a read starts with: a file's size can be 0 (`/proc`) or grow while it is read. */
const FIRST_READ_BYTES = 4096;

/**
 * Up to `limit` bytes from the start of the file (fewer at its end). The
 * buffer starts at the file's size (plus one byte, to see it grew) and
 * doubles only while it fills, never past `limit`: thousands of small rule
 * files read at once must not each hold a `limit`-sized buffer (20,000
 * one-byte files took 3 GB and 29 s that way).
 */
export async function readHead(
  handle: FileHandle,
  limit: number,
  size: number,
): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.min(limit, Math.max(size + 1, FIRST_READ_BYTES)));
  let filled = 0;
  while (filled < limit) {
    if (filled === buffer.length) {
      const grown = new Uint8Array(Math.min(limit, buffer.length * 2));
      grown.set(buffer);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** Synchronous twin of {@link readHead}, on a descriptor. */
export function readHeadSync(fd: number, limit: number, size: number): Uint8Array {
  let buffer = new Uint8Array(Math.min(limit, Math.max(size + 1, FIRST_READ_BYTES)));
  let filled = 0;
  while (filled < limit) {
    if (filled === buffer.length) {
      const grown = new Uint8Array(Math.min(limit, buffer.length * 2));
      grown.set(buffer);
      buffer = grown;
    }
    const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** Synchronous twin of {@link readTextFile}. */
export function readTextFileSync(path: string, maxBytes = MAX_TEXT_FILE_BYTES): TextFileResult {
  try {
    const s = statSync(path);
    if (!s.isFile()) return statFailure(path, s.isDirectory() ? "dir" : "other");
    if (s.size > maxBytes) return statFailure(path, "other", s.size, maxBytes);
  } catch (error) {
    const name = isMissing(error) ? undecodableNameSync(path, "file") : undefined;
    return name ? nameFailure(name) : readFailure(path, error);
  }
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NONBLOCK);
    const s = fstatSync(fd);
    if (!s.isFile()) return statFailure(path, s.isDirectory() ? "dir" : "other");
    if (s.size > maxBytes) return statFailure(path, "other", s.size, maxBytes);
    const bytes = readHeadSync(fd, maxBytes + 1, s.size);
    return bytes.length > maxBytes
      ? statFailure(path, "other", bytes.length, maxBytes)
      : decodeText(bytes, path);
  } catch (error) {
    return readFailure(path, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
