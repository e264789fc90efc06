import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openOutput } from "../../src/cli/_fd-output.js";
import { tempDir } from "../api/_helpers.js";

/** A stand-in for process.stdout: what it was given, and how often it was made. */
function fakeStream() {
  const got: string[] = [];
  let made = 0;
  const stream = {
    on: () => stream,
    write: (chunk: string | Uint8Array, done?: () => void) => {
      got.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      done?.();
      return true;
    },
    isTTY: true,
  };
  return {
    make: () => {
      made++;
      return stream as unknown as NodeJS.WriteStream;
    },
    got,
    made: () => made,
  };
}

const fail = (error: NodeJS.ErrnoException): never => {
  throw new Error(`write failed: ${error.code}`);
};

/** A FIFO opened at both ends without blocking, as a host that made its end non-blocking leaves it. */
function nonBlockingFifo() {
  const path = join(tempDir(), "fifo");
  execFileSync("mkfifo", [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return { reader, writer };
}

function drain(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buffer, 0, buffer.length, null);
    } catch {
      break; // EAGAIN: nothing more for now
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString("utf8");
}

describe.skipIf(process.platform === "win32")("the CLI's outputs", () => {
  it("write to a file directly, in order, without making Node's stream", () => {
    const path = join(tempDir(), "out.txt");
    const fd = openSync(path, "w");
    const stream = fakeStream();
    const out = openOutput(fd, stream.make, fail);
    const big = "é".repeat(300_000);
    out.write("first\n");
    out.write(big);
    out.write("last\n");
    let flushed = false;
    out.flush(() => {
      flushed = true;
    });
    closeSync(fd);
    expect(readFileSync(path, "utf8")).toBe(`first\n${big}last\n`);
    expect(stream.made()).toBe(0);
    expect(flushed).toBe(true);
    expect(out.isTTY()).toBe(false);
  });

  it("hand the rest to the stream when a non-blocking pipe is full, keeping the order", () => {
    const { reader, writer } = nonBlockingFifo();
    const stream = fakeStream();
    const out = openOutput(writer, stream.make, fail);
    const text = Array.from({ length: 40_000 }, (_, i) => `line ${i}\n`).join("");
    out.write(text);
    out.write("after\n");
    const direct = drain(reader);
    closeSync(reader);
    closeSync(writer);
    expect(stream.made()).toBe(1);
    expect(direct.length).toBeGreaterThan(0);
    expect(direct.length).toBeLessThan(text.length);
    expect(direct + stream.got.join("")).toBe(`${text}after\n`);
  });

  it("report a pipe with no reader (EPIPE) to the error handler", () => {
    const { reader, writer } = nonBlockingFifo();
    closeSync(reader);
    const errors: string[] = [];
    const out = openOutput(writer, fakeStream().make, (error) => {
      errors.push(error.code ?? "");
      throw new Error("ended");
    });
    expect(() => out.write("nobody reads this\n")).toThrow("ended");
    closeSync(writer);
    expect(errors).toEqual(["EPIPE"]);
  });

  it("leave a device (/dev/null, a terminal) to Node's stream", () => {
    const fd = openSync("/dev/null", "w");
    const stream = fakeStream();
    const out = openOutput(fd, stream.make, fail);
    out.write("to the device\n");
    closeSync(fd);
    expect(stream.made()).toBe(1);
    expect(stream.got).toEqual(["to the device\n"]);
    expect(out.isTTY()).toBe(true);
  });

  it("make no stream for an empty text (a render with no diagnostics, stderr a terminal)", () => {
    const fd = openSync("/dev/null", "w");
    const stream = fakeStream();
    const out = openOutput(fd, stream.make, fail);
    out.write("");
    let flushed = false;
    out.flush(() => {
      flushed = true;
    });
    closeSync(fd);
    expect(stream.made()).toBe(0);
    expect(flushed).toBe(true);
  });
});
