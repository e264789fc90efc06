import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { PageAsset } from "./_page.js";
import { parseSwitches, type Switches } from "./_switches.js";

/** What the request handler needs from the running inspector. */
export interface Inspector {
  /** The page's files by URL path (read at start). */
  page: ReadonlyMap<string, PageAsset>;
  /** `Host` headers answered: `127.0.0.1:PORT` and `localhost:PORT`. */
  allowedHosts: ReadonlySet<string>;
  /** The secret every `/api/` request must carry ({@link newToken}). */
  token: string;
  /** The latest view's JSON, as bytes made once per render and shared by every answer. */
  view: () => Buffer;
  /** The views sent and not yet taken ({@link createViewAnswers}). */
  answers: ViewAnswers;
  /** Whether another event stream may open (their number is capped). */
  hasRoom: () => boolean;
  /** Streams every render to `res` (server-sent events), starting with the latest. */
  subscribe: (res: ServerResponse) => void;
  /** Re-renders with these switches; resolves to the new view's JSON bytes, rejects when it cannot render. */
  switchOptions: (switches: Switches) => Promise<Buffer>;
}

const JSON_TYPE = "application/json; charset=utf-8";
const CROSS_ORIGIN = "forbidden: cross-origin request";
const NO_TOKEN = "forbidden: open the address sysprompt serve printed (its ?token=)";

/** The header the page sends its token in (`fetch`); an event stream, which cannot send one, gives `?token=`. */
export const TOKEN_HEADER = "x-sysprompt-token";

/**
 * A new token: 32 random bytes (256 bits) as 43 base64url characters, made
 * when the server starts and known only to whoever sees the address it
 * prints (or opens).
 */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether `given` is `token`, compared in constant time. */
function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(token, "utf8");
  // The length is no secret (every token is 43 characters); the bytes are compared in full.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: its header, else its `token` query parameter (the first one). */
function givenToken(req: IncomingMessage, query: string): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  if (typeof header === "string") return header;
  return new URLSearchParams(query).get("token") ?? undefined;
}

/** Largest body `POST /api/options` reads. */
export const MAX_BODY_BYTES = 8 * 1024;

/**
 * How long `POST /api/options` waits for its whole body, from its head on:
 * the page sends at most {@link MAX_BODY_BYTES} on the loopback at once, so a
 * body still missing then never comes (408, connection closed).
 */
export const BODY_DEADLINE_MS = 3_000;

/**
 * Connections open at once (`server.maxConnections`; past it Node closes a
 * new one at once): the page's few, its event streams
 * (16 at most) and a few tabs more.
 */
export const MAX_CONNECTIONS = 32;

/**
 * Bytes of views (`/api/render`, `/api/options` answers) sent and not yet
 * taken by their clients, across connections: past it a new request gets
 * 503 with `Retry-After`, unless none is waiting (a view larger than this
 * still goes, alone). Every answer shares the one view's bytes, so this
 * bounds what the kernel's copies and the queued answers can hold.
 */
export const MAX_UNSENT_VIEW_BYTES = 64 * 1024 * 1024;

/** Sends views with the caps above; `unsent` is the bytes not yet taken. */
export interface ViewAnswers {
  send(req: IncomingMessage, res: ServerResponse, view: Buffer): void;
  readonly unsent: number;
}

/**
 * The views on their way to clients. A connection holds at most one: one
 * that asks for another before it took the last (a pipelining client that
 * does not read) is closed. Past {@link MAX_UNSENT_VIEW_BYTES} waiting in
 * all, a new request gets 503.
 */
export function createViewAnswers(maxUnsent = MAX_UNSENT_VIEW_BYTES): ViewAnswers {
  const waiting = new WeakSet<Socket>();
  let unsent = 0;
  return {
    send(req, res, view) {
      const socket = req.socket;
      if (waiting.has(socket)) return void socket.destroy();
      if (unsent > 0 && unsent + view.length > maxUnsent) {
        res.setHeader("Retry-After", "5");
        return send(
          res,
          503,
          "text/plain; charset=utf-8",
          "too many views sent and not yet read; try again\n",
        );
      }
      unsent += view.length;
      waiting.add(socket);
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        unsent -= view.length;
        waiting.delete(socket);
        res.off("finish", settle);
        res.off("close", settle);
        socket.off("close", settle);
      };
      res.on("finish", settle);
      res.on("close", settle);
      socket.on("close", settle);
      send(res, 200, JSON_TYPE, view);
    },
    get unsent() {
      return unsent;
    },
  };
}

/**
 * Headers on every answer: nothing is cached, the page may load only its own
 * script, style and events, and no other site may frame it.
 */
const COMMON_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/**
 * Answers one request. Paths are compared as sent, byte for byte, with a
 * fixed table (`/`, `/app.css`, `/app.js`, `/api/render`, `/api/events`,
 * `/api/options`); anything else, encoded dots and absolute URLs included,
 * is a 404 without touching the disk. A `Host` other than the loopback
 * address and port is refused (403), so a DNS-rebinding page cannot read it,
 * and so is a request with another page's `Origin`: a browser sends one with
 * every cross-origin event stream and POST, never with the page's own GETs,
 * so another site cannot take the event streams' places (there are 16) or
 * make the inspector render. Every `/api/` path wants the server's token too
 * (the `x-sysprompt-token` header or `?token=`), else 403 and nothing of the
 * prompt: another user of the machine can reach 127.0.0.1 with any `Host`
 * header, but cannot know the token. The page itself (`/`, its script and
 * style) holds nothing of the prompt and is served without one.
 */
export function handleRequest(inspector: Inspector, req: IncomingMessage, res: ServerResponse) {
  if (!inspector.allowedHosts.has(req.headers.host ?? "")) {
    return send(res, 403, "text/plain; charset=utf-8", "forbidden: unexpected Host header\n");
  }
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  const search = query < 0 ? "" : url.slice(query + 1);
  const method = req.method ?? "";
  const origin = req.headers.origin;
  if (origin !== undefined && !inspector.allowedHosts.has(origin.replace(/^http:\/\//, ""))) {
    return path === "/api/options"
      ? send(res, 403, JSON_TYPE, JSON.stringify({ error: CROSS_ORIGIN }))
      : send(res, 403, "text/plain; charset=utf-8", `${CROSS_ORIGIN}\n`);
  }
  if (path.startsWith("/api/") && !tokenMatches(givenToken(req, search), inspector.token)) {
    return path === "/api/options"
      ? send(res, 403, JSON_TYPE, JSON.stringify({ error: NO_TOKEN }))
      : send(res, 403, "text/plain; charset=utf-8", `${NO_TOKEN}\n`);
  }
  const asset = inspector.page.get(path);
  if (asset) {
    if (method !== "GET" && method !== "HEAD") return notAllowed(res, "GET, HEAD");
    return send(res, 200, asset.type, method === "HEAD" ? "" : asset.body);
  }
  switch (path) {
    case "/api/render":
      if (method !== "GET") return notAllowed(res, "GET");
      return inspector.answers.send(req, res, inspector.view());
    case "/api/events":
      if (method !== "GET") return notAllowed(res, "GET");
      if (!inspector.hasRoom()) {
        res.setHeader("Retry-After", "5");
        return send(
          res,
          503,
          "text/plain; charset=utf-8",
          "too many event streams open; close a tab of the inspector\n",
        );
      }
      res.writeHead(200, {
        ...COMMON_HEADERS,
        "Content-Type": "text/event-stream; charset=utf-8",
        Connection: "keep-alive",
      });
      return inspector.subscribe(res);
    case "/api/options":
      if (method !== "POST") return notAllowed(res, "POST");
      return void switchOptions(inspector, req, res);
    default:
      return send(res, 404, "text/plain; charset=utf-8", "not found\n");
  }
}

async function switchOptions(inspector: Inspector, req: IncomingMessage, res: ServerResponse) {
  const fail = (status: number, error: string) =>
    send(res, status, JSON_TYPE, JSON.stringify({ error }));
  // A form or another site's page cannot send JSON without asking first; only the page does.
  if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
    return fail(415, "send the options as application/json");
  }
  // Another page's Origin was refused before (see handleRequest).
  // The rest of the body is not read: the connection ends with the answer.
  const closing = (status: number, error: string) => {
    res.setHeader("Connection", "close");
    fail(status, error);
  };
  const tooLarge = () => closing(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
  // Refused before a byte of it is read: a request that only says it is large
  // waited for a body it never sent.
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return tooLarge();
  const body = await readBody(req);
  if (body === null) return;
  if (body === undefined) return tooLarge();
  // A body that only says how long it is (`Content-Length: 8000`, two bytes sent) held the
  // socket until Node's request timeout, 300 s (review rev52b F11).
  if (body === LATE) return closing(408, `the body did not come within ${BODY_DEADLINE_MS} ms`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return fail(400, "the body is not valid JSON");
  }
  const switches = parseSwitches(parsed);
  if (!switches.ok) return fail(400, switches.error);
  try {
    inspector.answers.send(req, res, await inspector.switchOptions(switches.value));
  } catch (error) {
    fail(400, error instanceof Error ? error.message : String(error));
  }
}

/** What {@link readBody} gives for a body not whole within {@link BODY_DEADLINE_MS}. */
const LATE = Symbol("late");

/**
 * The body as text; `undefined` when it is longer than {@link MAX_BODY_BYTES},
 * {@link LATE} when it is not whole within {@link BODY_DEADLINE_MS}, whatever
 * length it declared, `null` when the request broke off. Past the cap or the
 * deadline nothing more is read; the answer goes out at once and closes the
 * connection.
 */
function readBody(req: IncomingMessage): Promise<string | undefined | null | typeof LATE> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (result: undefined | null | typeof LATE | string) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.pause();
      resolve(result);
    };
    const timer = setTimeout(() => stop(LATE), BODY_DEADLINE_MS);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      stop(undefined);
    };
    req.on("data", onData);
    req.on("end", () => stop(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => stop(null));
  });
}

function notAllowed(res: ServerResponse, allow: string) {
  res.setHeader("Allow", allow);
  send(res, 405, "text/plain; charset=utf-8", "method not allowed\n");
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer) {
  res.writeHead(status, {
    ...COMMON_HEADERS,
    "Content-Type": type,
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}
