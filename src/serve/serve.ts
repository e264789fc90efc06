import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { readTextFile } from "../_fs.js";
import { parseToolDescriptions } from "../gather/guidelines/index.js";
import { builtinPromptsDir } from "../locate/layers.js";
import type { SystemPromptOptions } from "../options.js";
import type { GivenBy } from "../resolve-options.js";
import { TOKEN_ENCODING } from "../tokens.js";
import { type RenderResult, SyspromptError } from "../types.js";
import { createEventClients, viewEvent } from "./_clients.js";
import {
  createViewAnswers,
  handleRequest,
  type Inspector,
  MAX_CONNECTIONS,
  newToken,
} from "./_http.js";
import { loadPage } from "./_page.js";
import { type SourceRender, watchRenders } from "./_source.js";
import { applySwitches, type Switches, switchesOf } from "./_switches.js";

import { createViewBuilder, type InspectorView, type RenderCause } from "./_view.js";

/** The only address the inspector listens on. */
export const SERVE_ADDRESS = "127.0.0.1";
/** How long a connection may take to send a request's head (Node's `headersTimeout`). */
const HEADERS_TIMEOUT_MS = 10_000;
/** How long it may take to send a whole request (Node's `requestTimeout`). */
const REQUEST_TIMEOUT_MS = 15_000;
/**
 * How long a connection may go without sending or taking a byte (Node's
 * `server.timeout`): an event stream gets a keep-alive every 15 s, a client
 * that stopped reading an answer is closed, its place among the
 * connections freed.
 */
const IDLE_CONNECTION_MS = 60_000;
/** Host names that mean that address. */
const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost"]);

export interface ServeHooks {
  /** The server stops, and `servePrompt` resolves, when this aborts. */
  signal: AbortSignal;
  /** `127.0.0.1` or `localhost` (both listen on 127.0.0.1); anything else is refused. Default: `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default: 0. */
  port?: number;
  /**
   * Called once the server listens, with the page's address:
   * `http://127.0.0.1:PORT/?token=…`. The token is made at start and every
   * request for the prompt must carry it: give the address to no one else.
   */
  onListen?: (url: string) => void;
  /** Quiet time after the last file event before a re-render. Default: 100 ms. */
  debounceMs?: number;
}

/**
 * Serves the live inspector page for the prompt `options` render, on
 * 127.0.0.1 only, until `signal` aborts: the prompt section by section
 * (name, layer, file), token bars with the total and the cache-stable prefix,
 * diagnostics, gathering steps, the templates' data, and after each change on
 * disk the changed sections as word diffs, pushed by server-sent events. The
 * page may switch tools, model, workspace tree and trust; nothing else comes
 * from a request, and no request path is ever read from disk. Every request
 * for the prompt (the JSON, the event stream, a switch) must carry the token
 * of the address given to `onListen`; the Host and Origin must be the page's.
 *
 * `givenBy` names who gave `options` in each render's `prepared.origins`.
 *
 * @throws SyspromptError for a host other than loopback, a bad port or one in
 * use, and bad render options (as `renderSystemPrompt`).
 */
export async function servePrompt(
  options: SystemPromptOptions,
  hooks: ServeHooks,
  givenBy: GivenBy = "api",
): Promise<void> {
  const host = hooks.host ?? SERVE_ADDRESS;
  if (!LOOPBACK_NAMES.has(host)) {
    throw new SyspromptError(
      "serve-host",
      `the inspector listens on 127.0.0.1 only (it shows your files to whoever can reach it); got host "${host}"`,
    );
  }
  const port = hooks.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SyspromptError(
      "serve-port",
      `port must be a whole number from 0 to 65535, got ${port}`,
    );
  }
  const [page, builtinTools] = await Promise.all([
    loadPage(),
    builtinToolNames(options.builtinDir ?? builtinPromptsDir()),
  ]);
  const buildView = createViewBuilder();
  const described = Object.keys(options.toolSnippets ?? {});

  interface Generation {
    controller: AbortController;
    done: Promise<void>;
  }
  const generations = new Set<Generation>();
  let active: Generation | undefined;
  let switches = switchesOf(options);
  let shown: RenderResult | undefined;
  let renders = 0;
  let view: InspectorView | undefined;
  /** The view's JSON as bytes, made once: every answer sends these, never a copy of its own. */
  let viewAnswer: Buffer = Buffer.alloc(0);
  let viewBytes: Buffer = Buffer.alloc(0);
  const clients = createEventClients();
  const token = newToken();

  /** Renders with `next` and, once its first render is in, shows it and retires the previous source. */
  const startSource = (next: Switches, cause: RenderCause) =>
    new Promise<void>((resolveFirst, rejectFirst) => {
      const generation: Generation = { controller: new AbortController(), done: Promise.resolve() };
      let first = true;
      generation.done = watchRenders(
        applySwitches(options, next),
        {
          signal: generation.controller.signal,
          ...(hooks.debounceMs !== undefined ? { debounceMs: hooks.debounceMs } : {}),
          onRender: (render) => {
            if (first) {
              first = false;
              active?.controller.abort();
              active = generation;
              switches = next;
              publish(render, cause);
              resolveFirst();
            } else if (active === generation) {
              publish(render, { kind: "files", files: render.changed });
            }
          },
        },
        givenBy,
      )
        .then(
          // Stopped before its first render: the switch did not happen.
          () => {
            if (first) rejectFirst(new Error("the inspector is stopping"));
          },
          (error: unknown) => {
            if (first) rejectFirst(error);
          },
        )
        .finally(() => generations.delete(generation));
      generations.add(generation);
    });

  function publish(render: SourceRender, cause: RenderCause) {
    const tools = [...new Set([...builtinTools, ...described, ...switches.tools])];
    view = buildView({
      count: renders++,
      cause,
      ms: render.ms,
      result: render.result,
      prepared: render.prepared,
      diagnostics: render.diagnostics,
      previous: shown,
      switches,
      tools,
      tokenizer: TOKEN_ENCODING,
      error: render.error,
    });
    if (!render.error) shown = render.result;
    const viewJson = JSON.stringify(view);
    viewAnswer = Buffer.from(viewJson);
    viewBytes = viewEvent(view.count, viewJson);
    clients.broadcast(viewBytes);
  }

  const stopAll = async () => {
    for (const g of generations) g.controller.abort();
    await Promise.all([...generations].map((g) => g.done));
  };

  try {
    await startSource(switches, { kind: "start", files: [] });
  } catch (error) {
    await stopAll();
    throw error;
  }

  let switching: Promise<unknown> = Promise.resolve();
  const server = createServer({
    // A request's head within 10 s, its whole within 15 s (the page's come at once).
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Checked each second, not Node's 30 s, so a connection that sends nothing frees its place.
    connectionsCheckingInterval: 1_000,
  });
  server.maxConnections = MAX_CONNECTIONS;
  // A connection that takes nothing of what it was sent for this long is closed.
  server.timeout = IDLE_CONNECTION_MS;
  const inspector: Inspector = {
    page,
    allowedHosts: new Set<string>(),
    token,
    view: () => viewAnswer,
    answers: createViewAnswers(),
    hasRoom: () => clients.hasRoom(),
    subscribe: (res) => {
      res.write("retry: 1000\n\n");
      clients.add(res, viewBytes);
    },
    switchOptions: (next) => {
      const run = switching.then(() => startSource(next, { kind: "options", files: [] }));
      switching = run.catch(() => undefined);
      return run.then(() => viewAnswer);
    },
  };
  server.on("request", (req: IncomingMessage, res: ServerResponse) =>
    handleRequest(inspector, req, res),
  );
  const keepAlive = setInterval(() => clients.keepAlive(), 15_000);
  keepAlive.unref();

  try {
    server.listen({ host: SERVE_ADDRESS, port });
    await Promise.race([
      once(server, "listening"),
      once(server, "error").then(([error]) => {
        throw error;
      }),
    ]);
  } catch (error) {
    clearInterval(keepAlive);
    await stopAll();
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "EADDRINUSE" ? "it is in use" : (error as Error).message;
    throw new SyspromptError("serve-listen", `cannot listen on ${SERVE_ADDRESS}:${port}: ${why}`, {
      cause: error,
    });
  }
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  inspector.allowedHosts = new Set([`127.0.0.1:${actualPort}`, `localhost:${actualPort}`]);
  hooks.onListen?.(`http://${SERVE_ADDRESS}:${actualPort}/?token=${token}`);

  if (!hooks.signal.aborted) await once(hooks.signal, "abort");
  clearInterval(keepAlive);
  clients.closeAll();
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeAllConnections();
  await Promise.all([closed, switching, stopAll()]);
}

/** The tools the builtin `tools.md` describes, in its order. */
async function builtinToolNames(builtinDir: string): Promise<string[]> {
  const file = await readTextFile(join(builtinDir, "tools.md"));
  return file.ok ? Object.keys(parseToolDescriptions(file.text)) : [];
}
