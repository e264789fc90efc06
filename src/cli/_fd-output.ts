import { fstatSync, writeSync } from "node:fs";

/**
 * One of the command's two outputs. Where the descriptor is a pipe, a socket
 * or a regular file (a script's `$(sysprompt render)`, `> prompt.md`, a host
 * that spawned it), text goes straight to it with write(2): `process.stdout`
 * is never made, and making it (a net.Socket for a pipe, with the streams
 * behind it) is some 3–5 ms of a 200 ms start. A terminal, a device
 * (`/dev/full`, `/dev/null`), a closed descriptor or Windows keep Node's
 * stream, as does a pipe that refuses a write for now (EAGAIN: its other end
 * made it non-blocking), from that write on, so the order of the text holds.
 */
export interface Output {
  /** Writes `text` whole, or ends the process through `onError`; nothing for "". */
  write(text: string): void;
  /** Calls `done` once everything written is out (at once unless the stream was used). */
  flush(done: (error?: Error | null) => void): void;
  /** Whether the output is a terminal (asked of the stream only when it may be one). */
  isTTY(): boolean;
}

/** `onError` receives a failed write's error (EPIPE, ENOSPC, …); it does not return. */
export function openOutput(
  fd: number,
  stream: () => NodeJS.WriteStream,
  onError: (error: NodeJS.ErrnoException) => never,
): Output {
  let direct = directlyWritable(fd);
  let made: NodeJS.WriteStream | undefined;
  const viaStream = () => {
    if (!made) {
      made = stream();
      made.on("error", onError);
    }
    return made;
  };
  return {
    write(text) {
      // Nothing to write (a render's empty list of diagnostics): no stream is made for it, which
      // for a terminal's stderr loaded tty, net and the streams (some 3-5 ms) on every render.
      if (text === "") return;
      if (!direct) {
        viaStream().write(text);
        return;
      }
      const bytes = Buffer.from(text, "utf8");
      let at = 0;
      while (at < bytes.length) {
        try {
          at += writeSync(fd, bytes, at, bytes.length - at);
        } catch (error) {
          const failed = error as NodeJS.ErrnoException;
          if (failed.code !== "EAGAIN") onError(failed);
          direct = false;
          viaStream().write(bytes.subarray(at));
          return;
        }
      }
    },
    flush(done) {
      if (made) made.write("", done);
      else done();
    },
    isTTY() {
      return !direct && viaStream().isTTY === true;
    },
  };
}

function directlyWritable(fd: number): boolean {
  if (process.platform === "win32") return false;
  try {
    const stats = fstatSync(fd);
    return stats.isFIFO() || stats.isSocket() || stats.isFile();
  } catch {
    // A closed descriptor: Node's stream says so its own way.
    return false;
  }
}
