// Review rev97b F2: `serve` sent each `/api/render` answer whole with no cap, and a client holding
// the token that never read left it buffered in the server, once per request and per connection:
// 8 trusted sections of 512 KB (a 4.3 MB view), 100 connections pipelining 4 requests each, the
// server's RSS went from 197 MB to 995 MB, in a straight line with the connections. Now the view's
// bytes are made once and every answer shares them, at most 32 connections are open, a connection
// that asks again before taking its last view is closed, and past 64 MiB of views not yet taken a
// new request gets 503.
import { mkdirSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_CONNECTIONS } from "../../src/serve/_http.js";
import { tempDir } from "../api/_helpers.js";
import { get, type Served, startServe } from "../cli/_serve.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Eight sections of 512 KB: a view of about 4.3 MB. */
const SECTIONS = 8;
const TEXT = "word lorem ipsum dolor sit amet\n".repeat(16_000);

const running: Served[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const served of running.splice(0)) await served.stop();
});

/** The process's memory that answers can hold: the V8 heap and the buffers outside it. */
function heldBytes(): number {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection that sends `requests` and never reads what comes back. */
function nonReader(port: number, request: string, requests: number): Socket {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.write(request.repeat(requests));
  socket.pause();
  sockets.push(socket);
  return socket;
}

/** A project of 8 trusted sections of 512 KB, served. */
async function bigProject(): Promise<Served> {
  const root = tempDir();
  for (const dir of ["project/.pi/sections", "agent", "home"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  for (let i = 0; i < SECTIONS; i++) {
    writeFileSync(
      join(root, `project/.pi/sections/big${i}.md`),
      `---\norder: ${500 + i}\n---\n${TEXT}\n`,
    );
  }
  const served = await startServe(root);
  running.push(served);
  return served;
}

/** The status of the first answer on `socket`, read now. */
function firstStatus(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    let head = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      head += chunk;
      const status = /^HTTP\/1\.1 (\d+)/.exec(head);
      if (status) resolve(Number(status[1]));
    });
    socket.resume();
  });
}

describe("hostile-serve-unread-answers: clients that never read keep serve's memory bounded", () => {
  it("100 connections pipelining 4 renders each, then a page still gets its view", async () => {
    const served = await bigProject();
    const first = await get(served.port, "/api/render");
    expect(first.status).toBe(200);
    const viewBytes = Buffer.byteLength(first.body);
    expect(viewBytes).toBeGreaterThan(4_000_000);

    const before = heldBytes();
    const request = `GET /api/render HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nX-Sysprompt-Token: ${served.token}\r\n\r\n`;
    for (let i = 0; i < 100; i++) nonReader(served.port, request, 4);
    await sleep(3_000);
    const held = heldBytes() - before;
    // Before: about one view per connection (183 MB of heap here, besides the kernel's copies);
    // now the answers share one view's bytes.
    expect(held).toBeLessThan(3 * viewBytes);

    // A page that reads gets its whole view.
    const page = await get(served.port, "/api/render");
    expect(page.status).toBe(200);
    expect(Buffer.byteLength(page.body)).toBe(viewBytes);
  }, 60_000);

  it("past 64 MiB of views not yet read, a new request gets 503", async () => {
    const served = await bigProject();
    const request = `GET /api/render HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nX-Sysprompt-Token: ${served.token}\r\n\r\n`;
    const before = heldBytes();
    const readers: Socket[] = [];
    for (let i = 0; i < 30; i++) {
      readers.push(nonReader(served.port, request, 1));
      await sleep(20);
    }
    await sleep(1_000);
    expect(heldBytes() - before).toBeLessThan(20 * 1024 * 1024);
    // 30 views of 4.3 MB are 130 MB: the first ones went, the later ones were refused.
    const statuses = await Promise.all(readers.map(firstStatus));
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
  }, 60_000);

  it("at most 32 connections are open: one past them is closed at once", async () => {
    const served = await bigProject();
    const idle: Socket[] = [];
    const closed = new Set<Socket>();
    for (let i = 0; i < 40; i++) {
      const socket = connect(served.port, "127.0.0.1");
      socket.on("error", () => {});
      socket.on("close", () => closed.add(socket));
      socket.resume();
      sockets.push(socket);
      idle.push(socket);
    }
    await sleep(1_000);
    expect(closed.size).toBe(40 - MAX_CONNECTIONS);
    for (const socket of idle) socket.destroy();
    await sleep(200);
    expect((await get(served.port, "/api/render")).status).toBe(200);
  }, 60_000);
});
