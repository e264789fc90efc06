import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, constants, openSync, readSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InputTooLarge, readInput } from "../../src/cli/_stdin.js";
import { tempDir } from "../api/_helpers.js";

/** A file of `text`, opened for reading. */
function fileOf(text: string | Buffer): number {
  const path = join(tempDir(), "in");
  writeFileSync(path, text);
  return openSync(path, "r");
}

/** A stream standing in for process.stdin: it records what was read of it and whether it was destroyed. */
function countingStream(chunks: string[]) {
  const stream = new PassThrough();
  let given = 0;
  let destroyed = false;
  const made = {
    stream,
    given: () => given,
    destroyed: () => destroyed,
    make: () => {
      for (const c of chunks) {
        given += c.length;
        stream.write(c);
      }
      stream.end();
      const destroy = stream.destroy.bind(stream);
      stream.destroy = (error?: Error) => {
        destroyed = true;
        return destroy(error);
      };
      return stream;
    },
  };
  return made;
}

describe.skipIf(process.platform === "win32")("readInput (the hook's stdin)", () => {
  it("reads the whole input, up to exactly the cap, as UTF-8", async () => {
    const fd = fileOf("é".repeat(100_000));
    await expect(readInput(fd, 200_000)).resolves.toBe("é".repeat(100_000));
    closeSync(fd);
    const empty = fileOf("");
    await expect(readInput(empty, 10)).resolves.toBe("");
    closeSync(empty);
  });

  it("refuses one byte past the cap, having read only that byte more", async () => {
    const path = join(tempDir(), "big");
    writeFileSync(path, "x".repeat(300_000));
    const fd = openSync(path, "r");
    await expect(readInput(fd, 100_000)).rejects.toThrow(new InputTooLarge(100_000).message);
    // The descriptor's offset is where the reader stopped: cap + 1.
    const rest = Buffer.alloc(300_000);
    let n = 0;
    for (let got = 1; got > 0; n += got) got = readSync(fd, rest, n, rest.length - n, null);
    closeSync(fd);
    expect(n).toBe(300_000 - 100_001);
  });

  it("reads a pipe through the stream (never by read(2) on libuv's threads), under the same cap", async () => {
    const fifo = join(tempDir(), "fifo");
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      // A pipe, the writer still there: the stream reads it all, read(2) none of it.
      const small = countingStream(["abc", "déf"]);
      await expect(readInput(reader, 100, small.make)).resolves.toBe("abcdéf");
      const big = countingStream(["x".repeat(60), "y".repeat(60), "z".repeat(60)]);
      await expect(readInput(reader, 100, big.make)).rejects.toThrow(InputTooLarge);
      expect(big.destroyed()).toBe(true);
      writeSync(writer, "unread");
    } finally {
      closeSync(reader);
      closeSync(writer);
    }
  });

  it("in the built hook: input past the cap is exit 0, nothing added, one line on stderr", () => {
    // The CLI's cap is 32 MiB; the built hook reads a file descriptor one byte past it.
    const bin = fileURLToPath(new URL("../../dist/src/cli/sysprompt.cjs", import.meta.url));
    const path = join(tempDir(), "huge");
    writeFileSync(path, Buffer.alloc(32 * 1024 * 1024 + 1, 0x20));
    const fd = openSync(path, "r");
    const out = spawnSync(process.execPath, [bin, "hook", "gemini-cli"], {
      stdio: [fd, "pipe", "pipe"],
      encoding: "utf8",
    });
    closeSync(fd);
    expect(out.status).toBe(0);
    expect(out.stdout).toBe("{}\n");
    expect(out.stderr).toBe(
      `sysprompt hook: the hook input is larger than ${32 * 1024 * 1024} bytes: nothing added\n`,
    );
  });
});
