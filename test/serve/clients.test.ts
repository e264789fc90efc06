import { mkdirSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createEventClients,
  MAX_CLIENT_BACKLOG_BYTES,
  MAX_EVENT_BYTES,
  MAX_EVENT_CLIENTS,
  viewEvent,
} from "../../src/serve/_clients.js";
import { tempDir } from "../api/_helpers.js";
import { get, type Served, startServe, tokenOf } from "../cli/_serve.js";

/**
 * A response whose socket takes `capacity` bytes and then nothing until
 * `drain()`: what a page that stopped reading looks like to the server.
 */
function stream(capacity: number) {
  const handlers = new Map<string, () => void>();
  const res = {
    written: [] as string[],
    writableLength: 0,
    writableNeedDrain: false,
    destroyed: false,
    write(text: string) {
      res.written.push(text);
      res.writableLength += text.length;
      if (res.writableLength > capacity) res.writableNeedDrain = true;
      return !res.writableNeedDrain;
    },
    destroy() {
      res.destroyed = true;
      handlers.get("close")?.();
    },
    end() {},
    on(event: string, handler: () => void) {
      handlers.set(event, handler);
      return res;
    },
    /** The peer read everything. */
    drain() {
      res.writableLength = 0;
      res.writableNeedDrain = false;
      handlers.get("drain")?.();
    },
  };
  return res;
}
const asResponse = (s: ReturnType<typeof stream>) => s as unknown as ServerResponse;

const view = (n: number, size = 100_000) => `event: render\ndata: ${String(n).repeat(size)}\n\n`;

describe("event streams with backpressure", () => {
  it("a stream that stops reading holds the newest render only, not one per render", () => {
    const clients = createEventClients();
    const slow = stream(150_000);
    clients.add(asResponse(slow), view(0));
    for (let n = 1; n <= 40; n++) clients.broadcast(view(n % 10));
    // The first two filled its socket; the 38 renders after that were not queued.
    expect(slow.written.length).toBe(2);
    slow.drain();
    expect(slow.written.length).toBe(3);
    expect(slow.written[2]).toBe(view(40 % 10));
    expect(clients.size).toBe(1);
  });

  it("a stream that keeps up gets every render", () => {
    const clients = createEventClients();
    const fast = stream(Number.POSITIVE_INFINITY);
    clients.add(asResponse(fast), view(0, 10));
    for (let n = 1; n <= 5; n++) clients.broadcast(view(n, 10));
    expect(fast.written).toEqual([0, 1, 2, 3, 4, 5].map((n) => view(n, 10)));
  });

  it("a stream holding more than the backlog limit beyond its event, or stalled past the stall time, is dropped", () => {
    const clients = createEventClients({ maxBacklogBytes: 1000, stallMs: 30_000 });
    // 2,000 bytes wait that are not the event being delivered.
    const huge = stream(10);
    huge.write("x".repeat(2000));
    clients.add(asResponse(huge), view(1, 10));
    expect([huge.destroyed, clients.size]).toEqual([true, 0]);

    const stalled = stream(10);
    clients.add(asResponse(stalled), view(1, 100));
    clients.broadcast(view(2, 100));
    const now = Date.now();
    clients.keepAlive(now + 29_000);
    expect(stalled.destroyed).toBe(false);
    clients.keepAlive(now + 31_000);
    expect([stalled.destroyed, clients.size]).toEqual([true, 0]);
  });

  it("delivers a view larger than the backlog limit (a model switch made one of 12 MB) to a slow stream, and the next one after it", () => {
    // Review rev44b L1: each such view was dropped as soon as written, and every new stream at its
    // first event, so the page reconnected every second for ever and never saw a render.
    const clients = createEventClients();
    const slow = stream(64 * 1024);
    const big = (n: number) => view(n, 6_000_000);
    clients.add(asResponse(slow), big(1));
    expect([slow.destroyed, clients.size, slow.written.length]).toEqual([false, 1, 1]);
    clients.broadcast(big(2));
    clients.broadcast(big(3));
    expect([slow.destroyed, slow.written.length]).toEqual([false, 1]);
    slow.drain();
    expect([slow.destroyed, slow.written.length, slow.written[1] === big(3)]).toEqual([
      false,
      2,
      true,
    ]);
  });

  it("a view over MAX_EVENT_BYTES is a short too-large event with its size, not the view", () => {
    const json = JSON.stringify({ count: 7, text: "é".repeat(600) });
    expect(viewEvent(7, json, 2000).toString("utf8")).toBe(`event: render\ndata: ${json}\n\n`);
    const bytes = Buffer.byteLength(json);
    expect(viewEvent(7, json, 1000).toString("utf8")).toBe(
      `event: too-large\ndata: {"count":7,"bytes":${bytes},"limit":1000}\n\n`,
    );
    expect(MAX_EVENT_BYTES).toBe(32 * 1024 * 1024);
  });

  it("the number of streams is capped; a closed one makes room", () => {
    const clients = createEventClients({ maxClients: 2 });
    const a = stream(Number.POSITIVE_INFINITY);
    clients.add(asResponse(a), "x");
    clients.add(asResponse(stream(Number.POSITIVE_INFINITY)), "x");
    expect(clients.hasRoom()).toBe(false);
    a.destroy();
    expect(clients.hasRoom()).toBe(true);
    expect(MAX_EVENT_CLIENTS).toBe(16);
    expect(MAX_CLIENT_BACKLOG_BYTES).toBe(4 * 1024 * 1024);
  });
});

const running: Served[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const served of running.splice(0)) await served.stop();
});

/** Opens `/api/events` and never reads from it; resolves with the status line. */
function idleStream(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    sockets.push(socket);
    socket.once("data", (chunk) => {
      resolve(chunk.toString("utf8").split("\r\n")[0] ?? "");
      socket.pause();
    });
    socket.on("error", reject);
    socket.write(
      `GET /api/events?token=${tokenOf(port)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
    );
  });
}

describe("sysprompt serve: event streams", () => {
  it("opens at most MAX_EVENT_CLIENTS streams; the next gets 503; the page itself is still served", async () => {
    const root = tempDir();
    for (const dir of ["project", "agent", "home"]) mkdirSync(join(root, dir), { recursive: true });
    const served = await startServe(root);
    running.push(served);
    const statuses: string[] = [];
    for (let i = 0; i < MAX_EVENT_CLIENTS + 4; i++) statuses.push(await idleStream(served.port));
    expect(statuses).toEqual([
      ...Array(MAX_EVENT_CLIENTS).fill("HTTP/1.1 200 OK"),
      ...Array(4).fill("HTTP/1.1 503 Service Unavailable"),
    ]);
    expect((await get(served.port, "/api/render")).status).toBe(200);
  });
});
