import { watchPrompt } from "../author/index.js";
import type { SystemPromptOptions } from "../options.js";
import type { PreparedPrompt } from "../render-system-prompt.js";
import type { GivenBy } from "../resolve-options.js";
import type { Diagnostic, RenderResult } from "../types.js";

/**
 * The inspector's one source of renders and change detection. The server
 * consumes only {@link SourceRender}; today it comes from `watchPrompt`
 * (the same files watched and the same debounce as `sysprompt watch`), and
 * pointing it elsewhere (a prompt session) touches this file alone.
 */
export interface SourceRender {
  /** The changed files that led to this render; empty for the first. */
  changed: string[];
  /** This render's result; on `error`, the last good one. */
  result: RenderResult;
  /** What `result` was rendered from. */
  prepared: PreparedPrompt;
  /** The render's diagnostics, then the slash-command templates'. */
  diagnostics: Diagnostic[];
  /** Time of the render, gathering included, in ms. */
  ms: number;
  /** Why this re-render could not be made (an explicit option that stopped working). */
  error?: Error;
}

export interface SourceHooks {
  /** Watching stops, and the promise resolves, when this aborts. */
  signal: AbortSignal;
  onRender: (render: SourceRender) => void;
  /** Quiet time after the last file event before a re-render. Default: `watchPrompt`'s. */
  debounceMs?: number;
}

/**
 * Renders, then re-renders (debounced, never two at once) when a file the
 * render read changes, until `signal` aborts. `givenBy` names who gave
 * `options` in each render's `prepared.origins`.
 *
 * @throws SyspromptError when the first render's options are bad.
 */
export function watchRenders(
  options: SystemPromptOptions,
  hooks: SourceHooks,
  givenBy: GivenBy = "api",
): Promise<void> {
  return watchPrompt(
    options,
    {
      signal: hooks.signal,
      ...(hooks.debounceMs !== undefined ? { debounceMs: hooks.debounceMs } : {}),
      onRender: (render) =>
        hooks.onRender({
          changed: render.changed,
          result: render.result,
          prepared: render.prepared,
          diagnostics: render.diagnostics,
          ms: render.ms,
          ...(render.error ? { error: render.error } : {}),
        }),
    },
    givenBy,
  );
}
