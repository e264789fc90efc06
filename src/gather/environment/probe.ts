import type { ChildProcess } from "node:child_process";
import { delimiter, isAbsolute, parse } from "node:path";
import { withoutRelativeXdg } from "../../_paths.js";
import { childPathEntries } from "./system-binary.js";

/** What a probe command gave: its standard output, or why there is none. */
export type ProbeResult =
  | {
      status: "ok";
      stdout: string;
      /** True when the command printed more than is read (256 KiB): `stdout` is its start. */
      truncated?: boolean;
    }
  /** The command does not exist on this machine. */
  | { status: "missing" }
  /** It ran and exited non-zero, or could not be started. */
  | { status: "failed" }
  /** It was still running at `timeoutMs` and was killed. */
  | { status: "timeout" };

/**
 * Runs the binary at the absolute path `command` with `args`, without a shell,
 * and resolves when it exits or is killed at `timeoutMs`. Find the binary
 * with {@link findSystemBinary} first: a runner never searches `PATH`. The
 * real one ({@link runProbe}) keeps no process alive: its child, pipes and
 * timer are unreferenced, and a child still running when the process exits
 * is killed.
 */
export type ProbeRunner = (
  command: string,
  args: readonly string[],
  options: {
    timeoutMs: number;
    /** Folders the project controls: their `PATH` entries are left out of the probe's own `PATH`. */
    exclude?: readonly string[];
    /**
     * The probe's whole environment, as given (its `PATH` already cut to
     * system entries). Default: this process's, with `PATH` cut (see `exclude`).
     */
    env?: Readonly<Record<string, string>>;
    /** Aborted: the probe is killed at once and gives `timeout` (a render that stopped waiting). */
    signal?: AbortSignal;
    /**
     * Descriptors of this process the probe inherits, as its descriptors 3,
     * 4, … in order (a folder held open, named `/proc/self/fd/3` in the
     * probe: the very folder judged, whatever is at its path by then).
     */
    fds?: readonly number[];
  },
) => Promise<ProbeResult>;

/** A probe's answer is a few lines; more than this is cut, not buffered without end. */
const MAX_PROBE_OUTPUT_BYTES = 256 * 1024;

/** Probes still running, killed if the process exits before they do. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * On POSIX the child leads its own process group, so killing the group also
 * stops what it started (a shell script's `sleep`, a helper holding the pipe).
 */
const OWN_GROUP = process.platform !== "win32";

function kill(child: ChildProcess): void {
  try {
    if (OWN_GROUP && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    // Already gone (ESRCH): nothing left to stop.
  }
}

function killRunningProbes(): void {
  for (const child of running) kill(child);
  running.clear();
}

/**
 * The environment a probe runs with: this process's, with `PATH` cut to the
 * entries a system binary is taken from ({@link childPathEntries}: absolute,
 * outside `exclude` and `node_modules`, no folder on the way that other
 * users may write), so that whatever the probe starts in turn (git's
 * helpers, a pager) is a system binary too.
 */
async function probeEnv(exclude: readonly string[]): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = withoutRelativeXdg(process.env);
  const path = (await childPathEntries(process.env, { exclude })).join(delimiter);
  for (const key of Object.keys(env)) if (key.toUpperCase() === "PATH") env[key] = path;
  return env;
}

/**
 * The real {@link ProbeRunner}: no shell, no `PATH` search (`command` must be
 * an absolute path, else it rejects with a TypeError: that is a bug in the
 * caller), the root of the binary's drive as working folder (never the
 * project), stdin closed, stderr dropped, stdout capped. Neither the child, its pipe nor the kill timer keeps the event loop
 * alive, so a CLI that has printed exits at once; a probe still running then
 * is killed on the way out rather than left behind. The flip side: something
 * else must keep the process up while it is awaited — in a render, the
 * gathering deadline's timer does, up to the deadline, which is all a render
 * waits for anyway.
 */
export const runProbe: ProbeRunner = async (command, args, options) => {
  const { timeoutMs, exclude = [], signal, fds = [] } = options;
  if (!isAbsolute(command)) {
    throw new TypeError(
      `runProbe: "${command}" is not an absolute path; find it with findSystemBinary`,
    );
  }
  // Loaded on first use: most renders take the GPU answer from the cache.
  const { spawn } = await import("node:child_process");
  const env = options.env ? { ...options.env } : await probeEnv(exclude);
  return new Promise<ProbeResult>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(command, [...args], {
        stdio: ["ignore", "pipe", "ignore", ...fds],
        windowsHide: true,
        detached: OWN_GROUP,
        // A neutral folder: what the probe reads relative to it is not the project's.
        cwd: parse(command).root,
        env,
      });
    } catch {
      // spawn throws synchronously only for bad arguments (e.g. a NUL in a path).
      resolve({ status: "failed" });
      return;
    }
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once("exit", killRunningProbes);
    }
    running.add(child);

    let done = false;
    const finish = (result: ProbeResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
      running.delete(child);
      resolve(result);
    };
    const stop = () => {
      kill(child);
      // Do not wait for the pipe to close: a grandchild may hold it open.
      child.stdout?.destroy();
      finish({ status: "timeout" });
    };
    const timer = setTimeout(stop, timeoutMs);
    timer.unref();
    if (signal?.aborted) stop();
    else signal?.addEventListener("abort", stop, { once: true });

    const chunks: Buffer[] = [];
    let size = 0;
    let dropped = false;
    child.stdout?.on("data", (chunk: Buffer) => {
      if (size >= MAX_PROBE_OUTPUT_BYTES) {
        dropped = true;
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      finish({ status: error.code === "ENOENT" ? "missing" : "failed" });
    });
    child.on("close", (code) => {
      finish(
        code === 0
          ? {
              status: "ok",
              stdout: Buffer.concat(chunks).subarray(0, MAX_PROBE_OUTPUT_BYTES).toString("utf8"),
              ...(dropped || size > MAX_PROBE_OUTPUT_BYTES ? { truncated: true } : {}),
            }
          : { status: "failed" },
      );
    });
    child.unref();
    // A pipe is a handle of its own; unreferenced so it cannot hold the process either.
    (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  });
};
