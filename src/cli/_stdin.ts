import { fstatSync, read } from "node:fs";

/** Bytes asked of one read(2). */
const CHUNK = 1 << 16;

/** More input than the reader takes: it stopped at `maxBytes + 1` bytes. */
export class InputTooLarge extends Error {
  readonly code = "input-too-large";
  constructor(maxBytes: number) {
    super(`the hook input is larger than ${maxBytes} bytes: nothing added`);
  }
}

/**
 * The whole of descriptor `fd` (standard input: 0) as UTF-8, at most
 * `maxBytes`: it reads no more than `maxBytes + 1` bytes, and the one past
 * the cap rejects with {@link InputTooLarge}, the rest left unread.
 *
 * Only a regular file, which never waits for a writer, is read by read(2) on
 * libuv's threads, which spares the streams' start (some 12 M instructions).
 * Anything else (a pipe, a socket, a terminal, a device) is read through
 * `stream()`, `process.stdin`, which reads each kind its own way (a pipe
 * through a libuv handle): Node's exit joins libuv's threads, so a read(2)
 * left waiting on a pipe its writer held open kept the process alive past
 * the hook's deadline until the writer closed it (review rev56d F5).
 */
export function readInput(
  fd: number,
  maxBytes: number,
  stream: () => NodeJS.ReadableStream = () => process.stdin,
): Promise<string> {
  const kept = new Kept(maxBytes);
  if (!fstatSync(fd).isFile()) return viaStream(stream(), kept);
  return new Promise((done, fail) => {
    const step = () => {
      // One byte past the cap is all it takes to know the cap is passed.
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, kept.room()));
      read(fd, buffer, 0, buffer.length, null, (error, n) => {
        if (error) fail(error);
        else if (!kept.add(buffer.subarray(0, n))) fail(new InputTooLarge(maxBytes));
        else if (n === 0) done(kept.text());
        else step();
      });
    };
    step();
  });
}

/** The bytes read so far, never more than the cap and one. */
class Kept {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  constructor(readonly maxBytes: number) {}
  room(): number {
    return this.maxBytes + 1 - this.size;
  }
  /** Keeps what of `bytes` fits under cap + 1; false once past the cap. */
  add(bytes: Buffer): boolean {
    const taken = bytes.subarray(0, this.room());
    this.chunks.push(taken);
    this.size += taken.length;
    return this.size <= this.maxBytes;
  }
  text(): string {
    return Buffer.concat(this.chunks, this.size).toString("utf8");
  }
}

/** The rest of `input`, after what `kept` holds, under its cap. */
function viaStream(input: NodeJS.ReadableStream, kept: Kept): Promise<string> {
  return new Promise((done, fail) => {
    const onData = (chunk: Buffer | string) => {
      if (kept.add(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk)) return;
      input.removeListener("data", onData);
      (input as { destroy?: () => void }).destroy?.();
      fail(new InputTooLarge(kept.maxBytes));
    };
    input.on("data", onData);
    input.once("end", () => done(kept.text()));
    input.once("error", fail);
  });
}
