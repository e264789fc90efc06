import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BODY_DEADLINE_MS } from "../../src/serve/_http.js";
import { tempDir } from "../api/_helpers.js";
import { type Served, startServe, tokenOf } from "../cli/_serve.js";

// `POST /api/options` of `sysprompt serve` refused a declared length past its
// 8 KiB cap at once (args50), but a request declaring less than the cap
// (`Content-Length: 8000`) and sending two bytes was answered with nothing:
// the server held the socket until Node's request timeout, 300 s (review
// rev52b F11). The body must now be whole within BODY_DEADLINE_MS of its head,
// whatever length it declares and however it trickles: else 408, closed.
// Slow by nature (it waits out the deadline): named `-scale`.

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
 * Sends the head declaring `length` and a two-byte body, then one more byte
 * every `everyMs`; what came back and when: once the connection closed, or
 * with `answered`, once an answer came (a kept-alive connection stays open).
 */
function post(
  port: number,
  length: number,
  o: { everyMs?: number; answered?: boolean } = {},
): Promise<{ answer: string; ms: number; closed: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let drip: NodeJS.Timeout | undefined;
    const end = (closed: boolean) => {
      clearTimeout(timer);
      clearInterval(drip);
      socket.destroy();
      resolve({ answer, ms: performance.now() - started, closed });
    };
    const timer = setTimeout(() => end(false), BODY_DEADLINE_MS + 5_000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      answer += chunk;
      // A whole answer on a kept-alive connection (the body was taken): no need to wait for its close.
      if (o.answered && answer.endsWith("}")) end(false);
    });
    socket.on("error", () => {});
    socket.on("close", () => end(true));
    socket.on("connect", () => {
      socket.write(
        `POST /api/options HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Sysprompt-Token: ${tokenOf(port)}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{}`,
      );
      if (o.everyMs !== undefined) drip = setInterval(() => socket.write(" "), o.everyMs);
    });
  });
}

describe("hostile request: sysprompt serve's /api/options waits a few seconds for a body, no more", () => {
  it("a declared length under the cap with two bytes sent: 408 at the deadline, connection closed", async () => {
    const { port } = await serve();
    const out = await post(port, 8_000);
    expect(out.closed).toBe(true);
    expect(out.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(out.answer).toContain(`the body did not come within ${BODY_DEADLINE_MS} ms`);
    expect(out.ms).toBeGreaterThanOrEqual(BODY_DEADLINE_MS - 100);
    expect(out.ms).toBeLessThan(BODY_DEADLINE_MS + 3_000);
  }, 20_000);

  it("a body that trickles in a byte at a time is cut at the same deadline", async () => {
    const { port } = await serve();
    const out = await post(port, 8_000, { everyMs: 100 });
    expect(out.closed).toBe(true);
    expect(out.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(out.ms).toBeLessThan(BODY_DEADLINE_MS + 3_000);
  }, 20_000);

  it("a whole body is still read and judged, at once", async () => {
    const { port } = await serve();
    const out = await post(port, 2, { answered: true });
    // `{}` read whole: its switches are judged (and found missing), not waited for.
    expect(out.answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(out.answer).toContain("missing field(s)");
    expect(out.ms).toBeLessThan(BODY_DEADLINE_MS);
  }, 20_000);
});
