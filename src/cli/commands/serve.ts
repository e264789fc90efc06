import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { withoutRelativeXdg } from "../../_paths.js";
import {
  childPathEntries,
  findSystemBinary,
  projectFolders,
  projectOwns,
  projectRoots,
  systemPathEntries,
} from "../../gather/environment/index.js";
import { servePrompt } from "../../serve/serve.js";
import { type CliIo, UsageError, untilStopped } from "../io.js";
import { type RenderFlags, toRenderOptions } from "../options.js";

export interface ServeFlags extends RenderFlags {
  port?: string;
  host?: string;
  open?: boolean;
}

/**
 * `sysprompt serve`: the live inspector on 127.0.0.1, its address on stdout.
 * Runs until `io.signal` aborts, Ctrl-C, SIGTERM, SIGHUP or SIGQUIT (see
 * {@link untilStopped}, the only place that handles them), then removes
 * `--open`'s page and exits 0 (143 on SIGTERM, 129 on SIGHUP, 131 on
 * SIGQUIT); a process that ends otherwise removes it as it exits. A host other
 * than loopback, a bad port or one in use is a usage error (exit 2).
 */
export async function serveCommand(flags: ServeFlags, io: CliIo): Promise<number> {
  const options = toRenderOptions(flags, io.cwd, io.env, io.home, io.machine);
  let port = 0;
  if (flags.port !== undefined) {
    if (!/^\d{1,5}$/.test(flags.port) || Number(flags.port) > 65535) {
      throw new UsageError(`--port expects a number from 0 to 65535, got "${flags.port}"`);
    }
    port = Number(flags.port);
  }
  let opened: Promise<string | undefined> | undefined;
  const code = await untilStopped(io, async (signal) => {
    await servePrompt(
      options,
      {
        signal,
        port,
        ...(flags.host !== undefined ? { host: flags.host } : {}),
        onListen: (url) => {
          io.stdout(`sysprompt inspector: ${url} (Ctrl-C to stop)\n`);
          if (flags.open) opened = openBrowser(url, io, options.cwd ?? io.cwd);
        },
      },
      "cli",
    );
  });
  // The page that held the token goes with the server whose token it was.
  const folder = await opened;
  if (folder !== undefined) {
    await rm(folder, { recursive: true, force: true });
    livePages.delete(folder);
  }
  io.stdout("stopped\n");
  return code;
}

/**
 * Hands the address to the desktop's opener, a system binary found as the
 * probes find theirs (`npx` puts the project's `node_modules/.bin` first on
 * PATH, and the project could ship an `xdg-open`); it runs with that system
 * PATH too, from `/`. A failure only costs a note. The opener is given a
 * page of ours ({@link writeOpenPage}), never the address: a command line is
 * in the process list, which other users of the machine may read, and the
 * address holds the token. Resolves with the page's folder, to remove when
 * the server stops.
 */
async function openBrowser(url: string, io: CliIo, cwd: string): Promise<string | undefined> {
  const fail = (why: string) =>
    io.stderr(`sysprompt: could not open a browser (${why}); open ${url} yourself\n`);
  let folder: string | undefined;
  try {
    folder = mkdtempSync(join(tmpdir(), "sysprompt-open-"));
    // Known from the moment it is made: an exit (a second Ctrl-C, bin.ts's `process.exit`) removes it.
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once("exit", removeLivePages);
    }
    livePages.add(folder);
    await openPage(io, cwd, await writeOpenPage(folder, url), fail);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  return folder;
}

/**
 * The folders of `--open`'s pages whose servers still run, removed at once
 * when the process exits whatever ends it: a second stop signal during the
 * stop exits at once (bin.ts), before `serveCommand` removes the page itself
 * (review rev54b F3: `INT INT`, `TERM INT`, `HUP HUP` left the page holding
 * the token in the temporary folder).
 */
const livePages = new Set<string>();
let exitHookInstalled = false;

function removeLivePages(): void {
  for (const folder of livePages) {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // An exit hook never throws: what cannot be removed stays (0700, yours alone).
    }
  }
}

/**
 * Writes `open.html` into `folder` (made by `mkdtemp`: mode 0700), readable
 * by you alone (0600): it sends the browser on to `url` at once. Returns its path.
 */
async function writeOpenPage(folder: string, url: string): Promise<string> {
  const href = url.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  const page = `<!doctype html>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>sysprompt inspector</title>
<p><a href="${href}">Open the sysprompt inspector</a></p>
`;
  const path = join(folder, "open.html");
  await writeFile(path, page, { mode: 0o600, flag: "wx" });
  return path;
}

async function openPage(
  io: CliIo,
  cwd: string,
  page: string,
  fail: (why: string) => void,
): Promise<void> {
  const [name, args] =
    process.platform === "darwin"
      ? ["open", [page]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', page]]
        : ["xdg-open", [page]];
  const exclude = await projectFolders(
    [io.cwd, resolve(io.cwd, cwd)],
    systemPathEntries(io.env),
    io.home,
  );
  const binary = await findSystemBinary(name, io.env, { exclude, home: io.home });
  if (binary === undefined) {
    fail(`no ${name} on an absolute PATH entry outside the project`);
    return;
  }
  const settings = await projectSettings(io, [io.cwd, resolve(io.cwd, cwd)]);
  if (settings !== undefined) {
    fail(
      `${settings} lies inside the project, whose files would choose the program that opens it (mimeapps.list, .desktop files)`,
    );
    return;
  }
  const env = {
    ...withoutRelativeXdg(io.env),
    PATH: (await childPathEntries(io.env, { exclude, home: io.home })).join(delimiter),
  };
  const child = spawn(binary, args, { cwd: "/", env, detached: true, stdio: "ignore" });
  child.on("error", (error) => fail(error.message));
  child.unref();
}

/** The folders where an opener (xdg-open, gio, kde-open) reads which program opens an address. */
const OPENER_SETTINGS = [
  "HOME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CONFIG_DIRS",
  "XDG_DATA_DIRS",
] as const;

/**
 * The first variable of {@link OPENER_SETTINGS} that names a folder inside
 * the project (`HOME` inside the checkout, as a CI job may set it; by the
 * path as written or its real path), or undefined. There the project's
 * `mimeapps.list` and `.desktop` files pick the handler of `http:`: a
 * program of its own would run.
 */
async function projectSettings(io: CliIo, folders: readonly string[]): Promise<string | undefined> {
  const named = OPENER_SETTINGS.flatMap((name) =>
    (io.env[name] ?? "")
      .split(delimiter)
      .filter((p) => isAbsolute(p))
      .map((path) => ({ name, path })),
  );
  if (named.length === 0) return undefined;
  // With the folders around the home folder that are the project's (see `projectHome`).
  const owns = projectOwns(
    await projectRoots(
      folders,
      named.map((n) => n.path),
      io.home,
    ),
  );
  for (const { name, path } of named) if (await owns(path)) return `$${name} (${path})`;
  return undefined;
}
