import { request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { run } from "../../src/cli/main.js";
import type { InspectorView } from "../../src/serve/_view.js";
import { NOW } from "../api/_helpers.js";

/** How long a test waits for the server or an event before it fails: far above the ~100 ms debounce plus a render, for a loaded CI machine. */
export const WAIT_MS = 10_000;

export interface Served {
  /** The address serve printed, its `?token=` included. */
  url: string;
  port: number;
  /** The token of that address. */
  token: string;
  stdout: () => string;
  /** Aborts the signal and waits for `run` to return. */
  stop: () => Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * Runs `sysprompt serve` through `run(argv, io)` in `<root>/project` with the
 * agent dir `<root>/agent`, a pinned clock and machine, and waits until it
 * prints its address. Rejects with the exit code and output when it ends first.
 */
export async function startServe(root: string, extra: string[] = []): Promise<Served> {
  const controller = new AbortController();
  let stdout = "";
  let stderr = "";
  let printed: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => {
    printed = resolve;
  });
  const argv = ["serve", "--agent-dir", join(root, "agent"), "--now", NOW, ...extra];
  const finished = run(argv, {
    stdout: (text) => {
      stdout += text;
      const url = /http:\/\/127\.0\.0\.1:\d+\/(\?token=[\w-]+)?/.exec(stdout)?.[0];
      if (url) printed(url);
    },
    stderr: (text) => {
      stderr += text;
    },
    cwd: join(root, "project"),
    env: {},
    home: join(root, "home"),
    machine: { platform: "linux", arch: "x64" },
    signal: controller.signal,
  });
  const url = await Promise.race([
    listening,
    finished.then((code) => {
      throw new Error(`serve ended with ${code} before listening:\n${stdout}${stderr}`);
    }),
  ]);
  const port = Number(new URL(url).port);
  const token = new URL(url).searchParams.get("token") ?? "";
  tokens.set(port, token);
  return {
    url,
    port,
    token,
    stdout: () => stdout,
    stop: async () => {
      controller.abort();
      const code = await finished;
      return { code, stdout, stderr };
    },
  };
}

/** The token of the server listening on each port (a port is reused only after its server stopped). */
const tokens = new Map<number, string>();

/** The token `startServe` read from the address of the server on `port`. */
export function tokenOf(port: number): string {
  return tokens.get(port) ?? "";
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `head` (request line and headers, CRLF-separated, without the blank
 * line) as written, over a plain socket: no client normalises `..` or
 * percent-escapes on the way.
 */
export function rawRequest(port: number, head: string, body = ""): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      data += chunk;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const split = data.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = data.slice(0, split).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: data.slice(split + 4) });
    });
    socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** A request with the usual Host header and the server's token, as the page sends them. */
export function get(port: number, path: string): Promise<RawResponse> {
  return rawRequest(
    port,
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Sysprompt-Token: ${tokenOf(port)}`,
  );
}

/** POSTs JSON to `/api/options` as the page does (with the server's token unless `headers` give another). */
export function postOptions(
  port: number,
  body: string,
  headers: Record<string, string> = { "Content-Type": "application/json" },
): Promise<RawResponse> {
  headers = { "X-Sysprompt-Token": tokenOf(port), ...headers };
  const lines = Object.entries(headers).map(([k, v]) => `\r\n${k}: ${v}`);
  return rawRequest(
    port,
    `POST /api/options HTTP/1.1\r\nHost: 127.0.0.1:${port}${lines.join("")}\r\nContent-Length: ${Buffer.byteLength(body)}`,
    body,
  );
}

/** The server-sent events of `/api/events`, one view per `render` event. */
export class EventFeed {
  private readonly views: InspectorView[] = [];
  private waiters: (() => void)[] = [];
  private readonly close: () => void;

  constructor(port: number) {
    let buffer = "";
    const path = `/api/events?token=${tokenOf(port)}`;
    const req = request({ host: "127.0.0.1", port, path }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split("\n").find((l) => l.startsWith("data: "));
          if (event.includes("event: render") && data) {
            this.views.push(JSON.parse(data.slice(6)) as InspectorView);
            for (const wake of this.waiters.splice(0)) wake();
          }
          end = buffer.indexOf("\n\n");
        }
      });
    });
    req.on("error", () => {});
    req.end();
    this.close = () => req.destroy();
  }

  /** The next view that satisfies `test`, waiting for it up to {@link WAIT_MS}. */
  async next(test: (view: InspectorView) => boolean = () => true): Promise<InspectorView> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const index = this.views.findIndex(test);
      if (index >= 0) {
        const [view] = this.views.splice(0, index + 1).slice(-1);
        if (view) return view;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("no such render event in time");
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  stop() {
    this.close();
  }
}
