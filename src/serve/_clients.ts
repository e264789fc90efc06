import type { ServerResponse } from "node:http";

/** Event streams open at once: a few tabs of the page; more is a leak or an attack. */
export const MAX_EVENT_CLIENTS = 16;

/**
 * Largest view an event carries, in bytes of JSON. A prompt holds at most
 * 16 Mi characters; a view holds its sections' texts and, after a change,
 * the word diffs of the changed ones (old and new text): a model switch
 * over 204 sections of 20 KB is a 12 MB view. Past this a short
 * `too-large` event says how large the view was, and the page says so
 * instead of showing it; the stream stays open for the next render.
 */
export const MAX_EVENT_BYTES = 32 * 1024 * 1024;

/**
 * Bytes one stream may hold unsent beyond the event being delivered. A
 * stream that has not taken its last event when the next one comes gets
 * the newest only (renders replace each other), so a reader that is slow
 * holds one view; one that holds more than this besides is dropped.
 */
export const MAX_CLIENT_BACKLOG_BYTES = 4 * 1024 * 1024;

/**
 * How long a stream may go without taking what was sent before it is
 * dropped: two keep-alive periods of a page that stopped reading.
 */
export const CLIENT_STALL_MS = 45_000;

/**
 * The event for a view whose JSON is `json`: `render` with the view, or over
 * `maxBytes` (default {@link MAX_EVENT_BYTES}) `too-large` with the render's
 * count and the view's size. One buffer, written as it is to every stream.
 */
export function viewEvent(count: number, json: string, maxBytes = MAX_EVENT_BYTES): Buffer {
  const bytes = Buffer.byteLength(json);
  if (bytes <= maxBytes) return Buffer.from(`event: render\ndata: ${json}\n\n`);
  return Buffer.from(
    `event: too-large\ndata: ${JSON.stringify({ count, bytes, limit: maxBytes })}\n\n`,
  );
}

/** One event as it is written: text, or the bytes of one shared by every stream. */
export type EventChunk = string | Buffer;

const sizeOf = (event: EventChunk) =>
  typeof event === "string" ? Buffer.byteLength(event) : event.length;

interface Client {
  res: ServerResponse;
  /** The newest event not yet written, while the stream has not drained. */
  pending: EventChunk | undefined;
  /** When the stream started to hold output back, or undefined while it keeps up. */
  stalledSince: number | undefined;
  /** Bytes of the last event written: what it is delivering, not counted as backlog. */
  delivering: number;
}

export interface EventClients {
  /** Whether one more stream may open ({@link MAX_EVENT_CLIENTS}). */
  hasRoom(): boolean;
  /** Adds a stream whose head is written; `first` is its first event. */
  add(res: ServerResponse, first: EventChunk): void;
  /** Sends `event` to every stream: at once where it keeps up, else replacing what waits. */
  broadcast(event: EventChunk): void;
  /** A keep-alive comment where a stream is idle; drops the streams stalled too long. */
  keepAlive(now?: number): void;
  /** Ends every stream. */
  closeAll(): void;
  readonly size: number;
}

/**
 * The inspector's open event streams, with backpressure: a stream that cannot
 * take output as fast as renders come keeps only the newest render queued
 * (never one per render), and one that holds more than
 * {@link MAX_CLIENT_BACKLOG_BYTES} beyond the event it is delivering, or
 * stalls for {@link CLIENT_STALL_MS}, is dropped (the page reconnects by
 * itself and gets the latest view). An event of any size is delivered: its
 * size is capped where it is made ({@link viewEvent}), not here, so a large
 * view is never a stream dropped and reconnected in a loop.
 */
export function createEventClients(
  limits: { maxClients?: number; maxBacklogBytes?: number; stallMs?: number } = {},
): EventClients {
  const maxClients = limits.maxClients ?? MAX_EVENT_CLIENTS;
  const maxBacklog = limits.maxBacklogBytes ?? MAX_CLIENT_BACKLOG_BYTES;
  const stallMs = limits.stallMs ?? CLIENT_STALL_MS;
  const clients = new Set<Client>();

  const drop = (client: Client) => {
    clients.delete(client);
    client.res.destroy();
  };

  const write = (client: Client, event: EventChunk) => {
    const { res } = client;
    if (res.destroyed) return drop(client);
    if (res.writableNeedDrain) {
      // Not taken what it was sent: the newest event replaces what was waiting.
      client.pending = event;
      client.stalledSince ??= Date.now();
      if (res.writableLength > client.delivering + maxBacklog) drop(client);
      return;
    }
    client.delivering = sizeOf(event);
    res.write(event);
    if (res.writableLength > client.delivering + maxBacklog) drop(client);
  };

  return {
    hasRoom: () => clients.size < maxClients,
    add(res, first) {
      const client: Client = { res, pending: undefined, stalledSince: undefined, delivering: 0 };
      clients.add(client);
      res.on("close", () => clients.delete(client));
      res.on("drain", () => {
        client.stalledSince = undefined;
        const next = client.pending;
        client.pending = undefined;
        if (next !== undefined) write(client, next);
      });
      write(client, first);
    },
    broadcast(event) {
      for (const client of clients) write(client, event);
    },
    keepAlive(now = Date.now()) {
      for (const client of clients) {
        if (client.stalledSince !== undefined && now - client.stalledSince >= stallMs) drop(client);
        else if (!client.res.writableNeedDrain) client.res.write(": keep-alive\n\n");
      }
    },
    closeAll() {
      for (const client of clients) client.res.end();
      clients.clear();
    },
    get size() {
      return clients.size;
    },
  };
}
