import { type FSWatcher, watch } from "node:fs";
import { basename, dirname, join } from "node:path";
import { pushAll } from "../../_arrays.js";
import { isEditorTemp } from "../../_editor-temp.js";
import { realpathSyncLinear } from "../../_realpath.js";
import { isTempNameOf } from "../../_safe-write.js";
import { diffSections } from "../../diff.js";
import { runStep } from "../../gather/deadline.js";
import type { SystemPromptOptions } from "../../options.js";
import { type PreparedPrompt, preparePrompt, renderPrepared } from "../../render-system-prompt.js";
import type { GivenBy } from "../../resolve-options.js";
import type { Diagnostic, RenderResult } from "../../types.js";
import { templatesBesideRender } from "../_render-templates.js";
import type { WatchHooks } from "../types.js";
import { type WatchTarget, watchTargets } from "./_watch-targets.js";

export type { WatchTarget };

/** How long the files must stay quiet before a re-render: an editor's save is several events. */
export const DEFAULT_DEBOUNCE_MS = 100;

/**
 * Renders the prompt, then re-renders whenever a file the render read
 * changes: a section or partial of any layer, a SYSTEM / SYSTEM_TEMPLATE /
 * APPEND file, a file named by `systemPrompt` / `appendSystemPrompt`, a
 * context file (or a new one in a folder searched) and its imports, a skill,
 * or a slash-command template (reloaded for its diagnostics; it is not part
 * of the prompt). Events are debounced; renders never overlap. Every render
 * is reported to `onRender` with what changed since the last one. The set of
 * folders watched is derived from each render, so a new `.pi/sections/`
 * folder or a new import is watched from the render that sees it.
 *
 * A file broken mid-edit is a diagnostic as in any render, and watching goes
 * on; so does an explicit option that stops working (a `systemPrompt` file
 * deleted), reported as `error`. Resolves once `signal` aborts, with every
 * watcher closed.
 *
 * `givenBy` names who gave `options` in each render's `prepared.origins`.
 *
 * @throws SyspromptError when the first render's options are bad (as `renderSystemPrompt`).
 */
export async function watchPrompt(
  options: SystemPromptOptions,
  hooks: WatchHooks,
  givenBy: GivenBy = "api",
): Promise<void> {
  const { signal, onRender, output } = hooks;
  const debounceMs = hooks.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const outputBase = output === undefined ? "" : basename(output.path);
  let previous = await renderOnce(options, givenBy, output?.path);
  if (signal.aborted) return;

  const watchers = new Map<string, { watcher: FSWatcher; target: WatchTarget }>();
  let count = 0;
  let changed = new Set<string>();
  /** A look that reports only a change (a folder newly watched), with no file named. */
  let check = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  pushAll(previous.diagnostics, updateWatchers(previous.targets).problems);
  onRender({
    count,
    changed: [],
    result: previous.result,
    prepared: previous.prepared,
    diagnostics: previous.diagnostics,
    ms: previous.ms,
    watching: watchedFolders(),
  });

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

  /**
   * Watches what `targets` names and stops watching what it no longer does.
   * `added`: it started watching a folder it did not watch before.
   * `problems`: folders the system would not watch (out of inotify watches,
   * of file descriptors), each a warning: a folder is never left out in silence.
   */
  function updateWatchers(targets: readonly WatchTarget[]): {
    added: boolean;
    problems: Diagnostic[];
  } {
    const problems: Diagnostic[] = [];
    const next = mergeTargets(targets);
    for (const [key, entry] of watchers) {
      if (!next.has(key)) {
        entry.watcher.close();
        watchers.delete(key);
      }
    }
    let added = false;
    for (const [key, target] of next) {
      const entry = watchers.get(key);
      if (entry) {
        entry.target = target;
        continue;
      }
      try {
        const watcher = watch(target.dir, (_event, name) =>
          onEvent(key, name === null ? null : String(name)),
        );
        // A folder removed while watched: the next render watches what is there then.
        watcher.on("error", () => {
          watcher.close();
          if (watchers.get(key)?.watcher === watcher) watchers.delete(key);
          schedule(target.dir);
        });
        watchers.set(key, { watcher, target });
        added = true;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // Gone between listing and watching: the next render sees what is there.
        if (code === "ENOENT" || code === "ENOTDIR") continue;
        problems.push(watchRefused(target.dir, error, code));
      }
    }
    return { added, problems };
  }

  function onEvent(key: string, name: string | null) {
    const target = watchers.get(key)?.target;
    if (!target) return;
    // Names are entries of the folder (no watch is recursive). In a folder watched whole, an
    // editor's temporary files are not changes (its save changes the file itself).
    if (name !== null && (target.names ? !target.names.has(name) : isEditorTemp(name))) return;
    // Nor is the caller's own write's temporary file beside its output (watch --export in a
    // folder watched whole, `--tree`: each export re-rendered, rev92d F1).
    if (name !== null && output !== undefined && isTempNameOf(name, outputBase)) return;
    schedule(name === null ? target.dir : join(target.dir, name));
  }

  /** A re-render once the files are quiet; `path` null: a check that reports only a change. */
  function schedule(path: string | null) {
    if (signal.aborted) return;
    if (path !== null) changed.add(path);
    else check = true;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) again = true;
      else start();
    }, debounceMs);
  }

  /** A re-render, unless the only change is the caller's own write (watch --export's export, which a render may read). */
  function start() {
    for (const path of changed) if (output?.wroteAsIs(path)) changed.delete(path);
    if (check || changed.size > 0) running = rerender();
  }

  async function rerender(): Promise<void> {
    const files = [...changed].sort();
    changed = new Set();
    check = false;
    try {
      const next = await renderOnce(options, givenBy, output?.path);
      if (signal.aborted) return;
      // A folder that appeared (a new `.pi/sections/`) may have got its files
      // before it was watched: one more look, reported only if it finds a change.
      const watched = updateWatchers(next.targets);
      pushAll(next.diagnostics, watched.problems);
      if (watched.added) schedule(null);
      const changes = diffSections(previous.result.sections, next.result.sections);
      const sameProblems =
        JSON.stringify(next.diagnostics) === JSON.stringify(previous.diagnostics);
      if (files.length === 0 && changes === undefined && sameProblems) return;
      onRender({
        count: ++count,
        changed: files,
        result: next.result,
        prepared: next.prepared,
        previous: previous.result,
        ...(changes ? { changes } : {}),
        diagnostics: next.diagnostics,
        previousDiagnostics: previous.diagnostics,
        ms: next.ms,
        watching: watchedFolders(),
      });
      previous = next;
    } catch (error) {
      // A bad explicit option (a --system-prompt file deleted meanwhile); anything
      // else is reported the same way rather than ending the watch.
      if (signal.aborted) return;
      onRender({
        count: ++count,
        changed: files,
        result: previous.result,
        prepared: previous.prepared,
        diagnostics: previous.diagnostics,
        ms: 0,
        watching: watchedFolders(),
        error: error instanceof Error ? error : new Error(String(error)),
      });
    } finally {
      running = undefined;
      if (again && !signal.aborted) {
        again = false;
        start();
      }
    }
  }

  function watchedFolders(): string[] {
    return [...new Set([...watchers.values()].map((w) => w.target.dir))].sort();
  }
}

/**
 * One render with its timing, its diagnostics and the slash-command
 * templates', and what it read; a warning when that includes `output`.
 */
async function renderOnce(options: SystemPromptOptions, givenBy: GivenBy, output?: string) {
  const started = performance.now();
  const prepared = await preparePrompt(options, runStep, givenBy);
  const result = renderPrepared(prepared);
  const ms = Math.round((performance.now() - started) * 10) / 10;
  const [templates, watched] = await Promise.all([
    templatesBesideRender(options, prepared, started),
    watchTargets(options, prepared),
  ]);
  const { targets } = watched;
  const diagnostics: Diagnostic[] = [
    ...result.diagnostics,
    ...templates.diagnostics,
    ...watched.diagnostics,
    ...(output !== undefined && reads(targets, output) ? [outputRead(output)] : []),
  ];
  return { result, prepared, diagnostics, ms, targets } satisfies {
    result: RenderResult;
    prepared: PreparedPrompt;
    diagnostics: Diagnostic[];
    ms: number;
    targets: WatchTarget[];
  };
}

/**
 * The files and folders the render `prepared` (of `options`) reads for the
 * prompt's text, as watch would watch them, less those that give the prompt
 * no text (the workspace tree's listing, the slash-command templates):
 * `render -o` and `export --out` refuse a target among them without
 * `--force` ({@link reads}, and where their links lead: review rev92d F2,
 * `-o ~/.pi/agent/APPEND_SYSTEM.md` put the repository's text in your own
 * file, read as yours by every later render; rev96d F1).
 */
export async function renderReadTargets(
  options: SystemPromptOptions,
  prepared: PreparedPrompt,
): Promise<WatchTarget[]> {
  return (await watchTargets(options, prepared, { textOnly: true })).targets;
}

/** Whether the files `targets` watch include `path` (by real path: a watched folder may be spelled another way). */
export function reads(targets: readonly WatchTarget[], path: string): boolean {
  const real = realOr(path);
  const name = basename(real);
  const dir = dirname(real);
  return targets.some((t) => (t.names === undefined || t.names.has(name)) && realOr(t.dir) === dir);
}

function realOr(path: string): string {
  try {
    return realpathSyncLinear(path);
  } catch {
    // Not there (yet): its path as given.
    return path;
  }
}

/** The render reads the file the caller writes after it: each export is the next render's input. */
function outputRead(path: string): Diagnostic {
  return {
    level: "warning",
    code: "watch-output-read",
    message:
      "the export target is one of this render's inputs (an import, a context file, a folder it lists): each prompt holds the export before it; watch's own writes of it are not a change, so only your edits re-render",
    path,
  };
}

/** A folder the system would not watch: which, why, and what to do about it. */
function watchRefused(dir: string, error: unknown, code: string | undefined): Diagnostic {
  const why = error instanceof Error ? error.message : String(error);
  const hint =
    code === "ENOSPC"
      ? "; the user's inotify watches are used up (raise fs.inotify.max_user_watches, or close other watchers)"
      : code === "EMFILE"
        ? "; too many open files"
        : "";
  return {
    level: "warning",
    code: "watch-refused",
    message: `cannot watch this folder (${why})${hint}; changes in it are not seen`,
    path: dir,
  };
}

/** One watcher per folder; their names merge (a target that wants every entry wins). */
function mergeTargets(targets: readonly WatchTarget[]): Map<string, WatchTarget> {
  const names = new Map<string, { target: WatchTarget; names: Set<string> | "all" }>();
  for (const target of targets) {
    const key = target.dir;
    const seen = names.get(key);
    const wanted = target.names ? new Set(target.names) : "all";
    if (!seen) names.set(key, { target, names: wanted });
    else if (seen.names !== "all") {
      seen.names = wanted === "all" ? "all" : new Set([...seen.names, ...wanted]);
    }
  }
  const merged = new Map<string, WatchTarget>();
  for (const [key, { target, names: n }] of names) {
    merged.set(key, {
      dir: target.dir,
      ...(n === "all" ? {} : { names: n }),
    });
  }
  return merged;
}
