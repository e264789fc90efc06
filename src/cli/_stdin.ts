import { read } from "node:fs";

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
 * the cap rejects with {@link InputTooLarge}, the rest left unread. It reads
 * with read(2) on libuv's threads, so `process.stdin` (a net.Socket and the
 * streams behind it, some 25 M instructions of a start) is never made, and a
 * timer still runs while it waits. A descriptor its writer made
 * non-blocking (EAGAIN) is read through `stream()`, under the same cap.
 */
export function readInput(
  fd: number,
  maxBytes: number,
  stream: () => NodeJS.ReadableStream = () => process.stdin,
): Promise<string> {
  return new Promise((done, fail) => {
    const kept = new Kept(maxBytes);
    const step = () => {
      // One byte past the cap is all it takes to know the cap is passed.
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, kept.room()));
      read(fd, buffer, 0, buffer.length, null, (error, n) => {
        if (error) {
          if (error.code === "EAGAIN") viaStream(stream(), kept).then(done, fail);
          else fail(error);
        } else if (!kept.add(buffer.subarray(0, n))) fail(new InputTooLarge(maxBytes));
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
