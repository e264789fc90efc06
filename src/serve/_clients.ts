import type { ServerResponse } from "node:http";

/** Event streams open at once: a few tabs of the page; more is a leak or an attack. */
export const MAX_EVENT_CLIENTS = 16;

/**
 * Bytes one stream may hold unsent beyond the render being delivered. A
 * stream that has not taken its last render when the next one comes gets
 * the newest only (renders replace each other), so a reader that is slow
 * holds one view; one that never reads is dropped once this much is queued.
 */
export const MAX_CLIENT_BACKLOG_BYTES = 4 * 1024 * 1024;

/**
 * How long a stream may go without taking what was sent before it is
 * dropped: two keep-alive periods of a page that stopped reading.
 */
export const CLIENT_STALL_MS = 45_000;

interface Client {
  res: ServerResponse;
  /** The newest event not yet written, while the stream has not drained. */
  pending: string | undefined;
  /** When the stream started to hold output back, or undefined while it keeps up. */
  stalledSince: number | undefined;
}

export interface EventClients {
  /** Whether one more stream may open ({@link MAX_EVENT_CLIENTS}). */
  hasRoom(): boolean;
  /** Adds a stream whose head is written; `first` is its first event. */
  add(res: ServerResponse, first: string): void;
  /** Sends `event` to every stream: at once where it keeps up, else replacing what waits. */
  broadcast(event: string): void;
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
 * {@link MAX_CLIENT_BACKLOG_BYTES} or stalls for {@link CLIENT_STALL_MS} is
 * dropped (the page reconnects by itself and gets the latest view).
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

  const write = (client: Client, event: string) => {
    const { res } = client;
    if (res.destroyed) return drop(client);
    if (res.writableNeedDrain) {
      // Not taken what it was sent: the newest event replaces what was waiting.
      client.pending = event;
      client.stalledSince ??= Date.now();
      if (res.writableLength > maxBacklog) drop(client);
      return;
    }
    res.write(event);
    if (res.writableLength > maxBacklog) drop(client);
  };

  return {
    hasRoom: () => clients.size < maxClients,
    add(res, first) {
      const client: Client = { res, pending: undefined, stalledSince: undefined };
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
