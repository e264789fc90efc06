import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { CONTEXT_FILE_NAMES } from "../gather/context-files.js";
import { DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../locate/layers.js";
import type { SystemPromptOptions } from "../options.js";
import { type PreparedPrompt, preparePrompt, renderPrepared } from "../render-system-prompt.js";
import type { RenderResult } from "../types.js";

/**
 * The inspector's one source of renders and change detection, shaped like
 * `watchPrompt(options, { signal, onRender })` so that it can be pointed at
 * that function (or at a prompt session) without touching the server: the
 * server only needs each render's result and prepared input.
 *
 * Until then it watches what a render reads most of the time: each layer
 * folder's own files (SYSTEM, APPEND, AGENTS) and, recursively, its
 * `sections/`, `partials/` and `skills/`; the working folder and the folder of
 * every context file loaded (context file names only). Imports, option files
 * and the workspace tree below the working folder are not watched.
 */
export interface SourceRender {
  /** 0 for the first render, then 1, 2, … */
  count: number;
  /** The changed files that led to this render; empty for the first. */
  changed: string[];
  /** This render's result; on `error`, the last good one. */
  result: RenderResult;
  /** What the render was made from; on `error`, the last good one. */
  prepared: PreparedPrompt;
  /** Time of the render, gathering included, in ms. */
  ms: number;
  /** Why this re-render could not be made (an explicit option that stopped working). */
  error?: Error;
}

export interface SourceHooks {
  /** Watching stops, and the promise resolves, when this aborts. */
  signal: AbortSignal;
  onRender: (render: SourceRender) => void;
  /** Quiet time after the last file event before a re-render. Default: 100 ms. */
  debounceMs?: number;
}

/** How long files must stay quiet before a re-render: an editor's save is several events. */
export const DEFAULT_DEBOUNCE_MS = 100;

/** The entries of a layer folder that a render reads. */
const LAYER_FILES = ["SYSTEM.md", "SYSTEM_TEMPLATE.md", "APPEND_SYSTEM.md", ...CONTEXT_FILE_NAMES];
/** Its sub-folders, read whole. */
const LAYER_FOLDERS = ["sections", "partials", "skills"];

/** A folder to watch; `names`: only these entries of it matter (a non-recursive watch). */
interface Target {
  dir: string;
  recursive: boolean;
  names?: Set<string>;
}

/**
 * Renders, then re-renders (debounced, never two at once) when a watched
 * file changes, until `signal` aborts.
 *
 * @throws SyspromptError when the first render's options are bad.
 */
export async function watchRenders(
  options: SystemPromptOptions,
  hooks: SourceHooks,
): Promise<void> {
  const { signal, onRender } = hooks;
  const debounceMs = hooks.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let last = await renderOnce(options);
  if (signal.aborted) return;
  let count = 0;
  const watchers = new Map<string, { watcher: FSWatcher; target: Target }>();
  let changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  updateWatchers(targetsFor(options, last.prepared));
  onRender({ count, changed: [], ...last });

  return new Promise<void>((done) => {
    const stop = async () => {
      clearTimeout(timer);
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
      await running;
      done();
    };
    if (signal.aborted) void stop();
    else signal.addEventListener("abort", () => void stop(), { once: true });
  });

  function updateWatchers(targets: Target[]) {
    const next = mergeTargets(targets);
    for (const [key, entry] of watchers) {
      if (next.has(key)) continue;
      entry.watcher.close();
      watchers.delete(key);
    }
    for (const [key, target] of next) {
      const entry = watchers.get(key);
      if (entry) {
        entry.target = target;
        continue;
      }
      try {
        const watcher = watch(target.dir, { recursive: target.recursive }, (_event, name) =>
          onEvent(key, name === null ? null : String(name)),
        );
        // A folder removed while watched: the next render watches what is there then.
        watcher.on("error", () => {
          watcher.close();
          if (watchers.get(key)?.watcher === watcher) watchers.delete(key);
          schedule(target.dir);
        });
        watchers.set(key, { watcher, target });
      } catch {
        // Gone between listing and watching; the next render sees what is there.
      }
    }
  }

  function onEvent(key: string, name: string | null) {
    const target = watchers.get(key)?.target;
    if (!target) return;
    if (name !== null && target.names && !target.names.has(name)) return;
    schedule(name === null ? target.dir : join(target.dir, name));
  }

  function schedule(path: string) {
    if (signal.aborted) return;
    changed.add(path);
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) again = true;
      else running = rerender();
    }, debounceMs);
  }

  async function rerender(): Promise<void> {
    do {
      again = false;
      const files = [...changed].sort();
      changed = new Set();
      try {
        last = await renderOnce(options);
        if (signal.aborted) break;
        updateWatchers(targetsFor(options, last.prepared));
        onRender({ count: ++count, changed: files, ...last });
      } catch (error) {
        if (signal.aborted) break;
        const err = error instanceof Error ? error : new Error(String(error));
        onRender({ count: ++count, changed: files, ...last, error: err });
      }
    } while (again && !signal.aborted);
    running = undefined;
  }
}

async function renderOnce(options: SystemPromptOptions) {
  const started = performance.now();
  const prepared = await preparePrompt(options);
  const result = renderPrepared(prepared);
  return { prepared, result, ms: Math.round((performance.now() - started) * 10) / 10 };
}

/** What to watch for `options`, given what the last render loaded. */
function targetsFor(options: SystemPromptOptions, prepared: PreparedPrompt): Target[] {
  const { cwd, agentDir } = resolveCommonPaths(options);
  const projectDir = options.projectDir ?? DEFAULT_PROJECT_DIR;
  const targets: Target[] = [];
  for (const layer of [agentDir, join(cwd, projectDir)]) {
    targets.push(existing({ dir: layer, recursive: false, names: new Set(LAYER_FILES) }));
    for (const folder of LAYER_FOLDERS) {
      targets.push(existing({ dir: join(layer, folder), recursive: true }));
    }
  }
  const contextNames = new Set(CONTEXT_FILE_NAMES);
  const folders = [cwd, ...prepared.data.contextFiles.map((f) => dirname(resolve(f.path)))];
  for (const dir of new Set(folders)) {
    const names = dir === cwd ? new Set([...contextNames, projectDir]) : contextNames;
    targets.push(existing({ dir, recursive: false, names }));
  }
  return targets;
}

/** One target per folder and kind; names of the same folder add up (none: every entry). */
function mergeTargets(targets: readonly Target[]): Map<string, Target> {
  const merged = new Map<string, Target>();
  for (const target of targets) {
    const key = `${target.recursive ? "r" : "n"}:${target.dir}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, target);
    else if (seen.names && target.names) {
      merged.set(key, { ...seen, names: new Set([...seen.names, ...target.names]) });
    } else merged.set(key, { dir: target.dir, recursive: target.recursive });
  }
  return merged;
}

/**
 * The target itself when its folder exists, else a watch on its nearest
 * existing ancestor for the one entry that leads to it, so that creating
 * `.pi/sections/` is noticed (the next render then watches the folder).
 */
function existing(target: Target): Target {
  let dir = target.dir;
  let child: string | undefined;
  while (!existsSync(dir)) {
    const parent = dirname(dir);
    if (parent === dir) return target;
    child = basename(dir);
    dir = parent;
  }
  if (child === undefined) return target;
  return { dir, recursive: false, names: new Set([child]) };
}
