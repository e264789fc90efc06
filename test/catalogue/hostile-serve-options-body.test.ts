import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { type Served, startServe, tokenOf } from "../cli/_serve.js";

// `POST /api/options` of `sysprompt serve` read its body to 8 KiB and refused
// more with a 413, but a request that only said it was large
// (`Content-Length: 300000000`, two bytes sent) was answered with nothing: the
// server waited for the body until Node's request timeout (300 s), one socket
// and one pending read each. A body sent past the cap was drained to its end
// after the answer. Review args50 (2): the declared length is refused before
// a byte is read, and a 413 closes the connection.

const running: Served[] = [];
afterEach(async () => {
  for (const served of running.splice(0)) await served.stop();
});

async function serve(): Promise<Served> {
  const root = tempDir();
  for (const dir of ["project", "agent", "home"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "project/AGENTS.md"), "Use pnpm.\n");
  const served = await startServe(root);
  running.push(served);
  return served;
}

/**
 * Sends the head and `body` bytes (streamed in 1 MiB pieces: chunks of the
 * chunked encoding when `length` is undefined); resolves with what came back
 * and when.
 */
function post(
  port: number,
  length: number | undefined,
  body: number,
): Promise<{ answer: string; ms: number; closed: boolean }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answer, ms: performance.now() - started, closed: false });
    }, 5_000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    // The server may close while the body is still being sent.
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ answer, ms: performance.now() - started, closed: true });
    });
    socket.on("connect", () => {
      socket.write(
        `POST /api/options HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Sysprompt-Token: ${tokenOf(port)}\r\nContent-Type: application/json\r\n${length === undefined ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`}\r\n\r\n`,
      );
      const piece = Buffer.alloc(Math.min(body, 1024 * 1024), 0x20);
      let sent = 0;
      const more = () => {
        while (sent < body && !socket.destroyed) {
          const part = piece.subarray(0, Math.min(piece.length, body - sent));
          sent += part.length;
          const framed =
            length === undefined
              ? Buffer.concat([
                  Buffer.from(`${part.length.toString(16)}\r\n`),
                  part,
                  Buffer.from("\r\n"),
                ])
              : part;
          if (!socket.write(framed)) return void socket.once("drain", more);
        }
      };
      more();
    });
    socket.on("timeout", () => reject(new Error("timeout")));
  });
}

describe("hostile request: sysprompt serve's /api/options refuses a large body at once", () => {
  it("a declared length past the cap: 413 before any body, connection closed", async () => {
    const { port } = await serve();
    const out = await post(port, 300_000_000, 2);
    expect(out.closed).toBe(true);
    expect(out.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(out.answer).toContain('{"error":"the body is larger than 8192 bytes"}');
    expect(out.ms).toBeLessThan(3_000);
  });

  it("a body sent past the cap: 413, and the rest is not read to its end", async () => {
    const { port } = await serve();
    const size = 256 * 1024 * 1024;
    const out = await post(port, undefined, size);
    expect(out.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(out.closed).toBe(true);
    expect(out.ms).toBeLessThan(3_000);
  });
});
