import { constants, type Stats } from "node:fs";
import { closeOpenBlocks } from "../_fence.js";
import { binaryFile, decodeText, holdsNul, notRegularFile, readHead, wideText } from "../_fs.js";
import type { ReadHandle as FileHandle } from "../_io.js";
import { lstat, open, stat } from "../_io.js";
import { withCheckBudget } from "../sections/html-reading.js";
import { type Diagnostic, SyspromptError } from "../types.js";

/** Default cap of each context file and each import (`maxContextBytes`). */
export const DEFAULT_MAX_CONTEXT_BYTES = 256 * 1024;

/** Opening a FIFO with this flag returns at once instead of waiting for a writer. */
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A UTF-8 character is at most 4 bytes: a cut backs off at most 3 to land on a boundary. */
const MAX_UTF8_BACKOFF = 3;

export type CappedText =
  | {
      ok: true;
      text: string;
      /** Bytes left out after the cut; 0 when the whole file was read. */
      omitted: number;
      diagnostics: Diagnostic[];
    }
  | {
      ok: false;
      reason: "missing" | "not-file" | "binary" | "unreadable";
      diagnostics: Diagnostic[];
    };

/** Checks an explicit `maxContextBytes` / `maxBytes` option. */
export function checkMaxBytes(value: unknown, what = "maxContextBytes"): number {
  if (value === undefined) return DEFAULT_MAX_CONTEXT_BYTES;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new SyspromptError(
      "bad-option",
      `${what}: expected a whole number of bytes (1 or more), got ${JSON.stringify(value) ?? String(value)}`,
    );
  }
  return value;
}

/**
 * Reads at most `maxBytes` of a regular text file. Nothing but a regular file
 * is ever opened (a FIFO, socket or device is refused from `stat`, and again
 * from the open handle), and never more than `maxBytes + 1` bytes are read,
 * however large the file: a longer file is cut at a UTF-8 character boundary
 * and `omitted` says how much was left out. A NUL byte in what was read means
 * binary: refused. The open file must be the very one checked (same device
 * and inode), or it was swapped in between and is not read; with `follow`
 * false, a link is refused, at the check and at the open (`O_NOFOLLOW`).
 */
export async function readCappedText(
  path: string,
  maxBytes: number,
  o: { follow?: boolean } = {},
): Promise<CappedText> {
  const read = await readCappedBytes(path, maxBytes, o);
  return read.ok ? decodeCapped(read.bytes, read.total, maxBytes, path) : read;
}

/** What {@link readCappedBytes} read: up to `maxBytes + 1` bytes of a file `total` bytes long. */
export type CappedBytes =
  /** `names`: the open file's link count (more than 1: a hard link, its other names unseen). */
  { ok: true; bytes: Uint8Array; total: number; names: number } | CappedFailure;

type CappedFailure = Extract<CappedText, { ok: false }>;

/**
 * {@link readCappedText}'s read, undecoded: the file's first bytes (one more
 * than `maxBytes` when it is longer, so the caller sees the cut), with the
 * same checks of what is opened. For text git reads as bytes (an ignore file).
 */
export async function readCappedBytes(
  path: string,
  maxBytes: number,
  o: { follow?: boolean } = {},
): Promise<CappedBytes> {
  const follow = o.follow ?? true;
  let before: Stats;
  try {
    before = follow ? await stat(path) : await lstat(path);
    if (!before.isFile()) return notFile(path, before.isDirectory());
  } catch (error) {
    return failure(path, error);
  }
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
    const s = await handle.stat();
    if (!s.isFile()) return notFile(path, s.isDirectory());
    if (s.dev !== before.dev || s.ino !== before.ino) return swapped(path);
    const bytes = await readHead(handle, maxBytes + 1, s.size);
    return { ok: true, bytes, total: Math.max(s.size, bytes.length), names: s.nlink };
  } catch (error) {
    // A link put in its place since the check: O_NOFOLLOW refused it.
    if ((error as NodeJS.ErrnoException).code === "ELOOP") return swapped(path);
    return failure(path, error);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The file checked is not the one opened: replaced in between, so not read. */
function swapped(path: string): CappedFailure {
  return {
    ok: false,
    reason: "unreadable",
    diagnostics: [
      {
        level: "warning",
        code: "file-unreadable",
        message:
          "the file was replaced (by a link, or another file) between its check and its opening; not read",
        path,
      },
    ],
  };
}

/**
 * The largest end at or below `end` (at most 3 bytes back) where a cut of
 * UTF-8 `bytes` splits no character: continuation bytes (10xxxxxx) are
 * backed off.
 */
export function charBoundary(bytes: Uint8Array, end: number): number {
  let at = Math.max(0, end);
  for (let k = 0; k < MAX_UTF8_BACKOFF && at > 0 && ((bytes[at] ?? 0) & 0xc0) === 0x80; k++) at--;
  return at;
}

export function decodeCapped(
  bytes: Uint8Array,
  total: number,
  maxBytes: number,
  path: string,
): CappedText {
  const end = bytes.length > maxBytes ? charBoundary(bytes, maxBytes) : bytes.length;
  const kept = bytes.subarray(0, end);
  const wide = wideText(path, kept);
  if (wide) return wide;
  if (holdsNul(kept, kept.length)) return binaryFile(path, "binary file (NUL bytes) skipped");
  const decoded = decodeText(kept, path);
  if (!decoded.ok) return { ok: false, reason: "binary", diagnostics: decoded.diagnostics };
  const omitted = total - end;
  const diagnostics = [...decoded.diagnostics];
  if (omitted > 0) {
    diagnostics.push({
      level: "warning",
      code: "context-cut",
      message: `file is ${total} bytes, over the ${maxBytes}-byte limit: cut after ${end} bytes, ${omitted} left out`,
      path,
    });
  }
  return { ok: true, text: decoded.text, omitted, diagnostics };
}

/** The line that ends a cut file in the prompt, so the model knows text is missing. */
export function cutMarker(omitted: number, maxBytes: number): string {
  return `[… ${humanBytes(omitted)} (${omitted} bytes) more of this file left out: context files are cut at ${humanBytes(maxBytes)}]`;
}

/**
 * `text` cut at `maxBytes`, ended by {@link cutMarker}: a fenced code block or
 * an HTML comment the cut left open is closed first, so the marker is read
 * as text and the block does not run on over what follows. Cut in a
 * gathering step, outside a render's budget for the closers' check: what the
 * cut leaves of a text holding HTML is not checked there, but has each `<`
 * written `&lt;` (a check budget of 0: eight 256 KiB cut `AGENTS.md` checked
 * one by one held the context step past its deadline, and every context file
 * was dropped); inside a budget (a touch call) it spends that budget.
 */
export function withCutMarker(text: string, omitted: number, maxBytes: number): string {
  return `${withCheckBudget(() => closeOpenBlocks(text), 0)}\n${cutMarker(omitted, maxBytes)}`;
}

/** `512 B`, `1.5 KiB`, `49.6 MiB`: fixed format, no locale. */
export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${trimZero((n / 1024).toFixed(1))} KiB`;
  return `${trimZero((n / (1024 * 1024)).toFixed(1))} MiB`;
}

function trimZero(fixed: string): string {
  return fixed.endsWith(".0") ? fixed.slice(0, -2) : fixed;
}

export function notFile(path: string, isDir: boolean): CappedFailure {
  return notRegularFile(path, isDir);
}

export function failure(path: string, error: unknown): CappedFailure {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  const missing = code === "ENOENT" || code === "ENOTDIR";
  return {
    ok: false,
    reason: missing ? "missing" : "unreadable",
    diagnostics: [
      {
        level: "warning",
        code: missing ? "file-missing" : "file-unreadable",
        message: missing
          ? "file not found"
          : `cannot read file: ${error instanceof Error ? error.message : String(error)}`,
        path,
      },
    ],
  };
}
