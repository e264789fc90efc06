import { diffSections } from "../diff.js";
import type { TouchedContext, TouchedFile } from "../gather/context/index.js";
import { realMachine } from "../gather/environment/index.js";
import { OPTION_SPECS } from "../options/registry.js";
import type { SessionFixedOption, SystemPromptOptions } from "../options.js";
import { preparePrompt, renderPrepared } from "../render-system-prompt.js";
import { type RenderResult, SyspromptError } from "../types.js";
import { type TakenSections, takeSessionSections, withTakenSessionSections } from "./_keep.js";
import { memoizingRunner, type StepMemo } from "./_memo.js";
import { DEFAULT_SETTLE_MS } from "./_read-set.js";
import { sessionContextFor, type TouchState } from "./touch.js";

/**
 * Options a session fixes when it is created (`session: "fixed"` in the
 * option registry): where it reads from and the machine it describes. Every
 * other option may change from one render to the next; a change to one
 * that a gathering step depends on (`tools`, which
 * decides whether skills are loaded; `skills`; `workspaceTree`, `treeMtime`;
 * `roots`; `maxContextBytes`; `skillPaths`; `projectTrusted`;
 * `noContextFiles`; `resolvedSystemPrompt` / `resolvedAppendPrompt`, which
 * decide whether SYSTEM.md / APPEND_SYSTEM.md are read) runs that step again,
 * and only that one: each step is keyed by its inputs.
 */
export const SESSION_FIXED_OPTIONS: readonly SessionFixedOption[] = OPTION_SPECS.filter(
  ([, spec]) => spec.session === "fixed",
).map(([name]) => name as SessionFixedOption);

export type { SessionFixedOption };

/** What one {@link PromptSession.render} may change: any option but the fixed ones. */
export type SessionOverrides = Omit<SystemPromptOptions, SessionFixedOption>;

export interface SessionRender {
  /** Exactly what `renderSystemPrompt` returns for the same options and files (step timings aside). */
  result: RenderResult;
  /**
   * `diffSections(previous.sections, result.sections)`: the new text of each
   * changed or added section, `null` for a removed one; undefined when nothing
   * changed, and on the first render.
   */
  changes: Record<string, string | null> | undefined;
}

/** How a session treats the prompt from render to render; fixed when it is created. */
export interface SessionSettings {
  /**
   * Keep the sections of class `session` (the workspace tree, the AGENTS.md
   * list, the environment, the date) as the first render took them, byte for
   * byte, until {@link PromptSession.refresh}: within one agent session the
   * prompt then changes only when a file written for the agent does (stable
   * sections still follow their files), and a provider's cached prefix
   * survives source edits and midnight. A render whose gathering ran late (a
   * step timed out) takes nothing: the next one takes them. So does a render
   * whose project trust (`projectTrusted`) differs from the render they were
   * taken in: a trusted project's own `cache: session` section never stays
   * in an untrusted render. Default: false
   * (every render is what `renderSystemPrompt` gives).
   */
  keepSessionSections?: boolean;
}

/** What a caller of {@link PromptSession.contextFor} may ask. */
export interface ContextForAsked {
  contextFiles?: boolean;
  /** Whether the files found can be given now; false: none is kept as given. */
  appendable?: (files: readonly TouchedFile[]) => boolean;
}

export interface PromptSession {
  /**
   * Renders the prompt. `overrides` apply to this render only, over the
   * session's options (an override set to `undefined` unsets that option).
   * Renders run one at a time, in call order. Throws {@link SyspromptError}
   * for a bad option, an override of a fixed option, or after `close()`.
   */
  render(overrides?: SessionOverrides): Promise<SessionRender>;
  /**
   * With `keepSessionSections`: the next render takes fresh session sections
   * (and keeps those). Without it, nothing to do. Throws after `close()`.
   */
  refresh(): void;
  /**
   * The instruction files that `paths` (absolute, or relative to cwd) bring
   * in and the prompt does not hold: nested AGENTS.md / CLAUDE.md between the
   * project root and each path's folder, and glob rules whose globs match
   * (see `loadContextForPaths`). Each file comes once per session; the
   * system prompt is unchanged. Uses the options of the last render (the
   * session's own before the first) and the rules that render found. Runs
   * in turn with renders. `options.contextFiles` says whether context
   * files come (default: unless the last render had `noContextFiles`); glob
   * rules come either way. `options.appendable`, asked only when files
   * come, says whether the caller can give them now (pi: a tool result
   * nothing can follow, such as `<plaintext>`): false, none is kept as given
   * (they come with a later call) and `files` is empty. Throws
   * {@link SyspromptError} for paths that are not strings, or after `close()`.
   */
  contextFor(paths: readonly string[], options?: ContextForAsked): Promise<TouchedContext>;
  /**
   * Forgets which files `contextFor` gave (and refused), so each comes once
   * more: for a host that dropped them from the conversation (a compaction).
   */
  forgetContext(): void;
  /** Forgets everything the session kept. Further renders throw; closing twice is harmless. */
  close(): void;
}

/**
 * A prompt that is rendered again and again in one long-running agent
 * session. The session keeps what each gathering step found, with every file
 * and folder the step read — paths looked up and missing included — and the
 * stat of each. The next render re-runs a step only when one of those stats
 * changed (a file edited, a file added to or removed from a folder it
 * listed, a missing file that now exists) or its options did; the workspace
 * tree is walked again only when a folder or file it showed changed. So a
 * render when nothing changed costs some stats and the pure render step.
 *
 * The text is always what `renderSystemPrompt` would give for the same
 * options and files. A step that misses the deadline gives its fallback, as
 * in `renderSystemPrompt`, and runs again on the next render. No timer or
 * watcher is started: all checking happens inside `render()`.
 */
export function createPromptSession(
  options: SystemPromptOptions = {},
  settings: SessionSettings = {},
): PromptSession {
  return openPromptSession(options, DEFAULT_SETTLE_MS, settings);
}

/**
 * {@link createPromptSession} with the settle time of file stats as a
 * parameter (see `DEFAULT_SETTLE_MS`): tests that move every edited file's
 * mtime to a time of its own pass `-Infinity`, so the files they have just
 * written are reused.
 */
export function openPromptSession(
  options: SystemPromptOptions,
  settleMs: number,
  settings: SessionSettings = {},
): PromptSession {
  if (typeof settings !== "object" || settings === null) {
    throw new SyspromptError("bad-option", "createPromptSession: settings must be an object");
  }
  const keep = settings.keepSessionSections ?? false;
  if (typeof keep !== "boolean") {
    throw new SyspromptError(
      "bad-option",
      "createPromptSession: keepSessionSections must be true or false",
    );
  }
  let taken: TakenSections | undefined;
  /** The trust `taken` was rendered under. */
  let takenTrusted = true;
  const base: SystemPromptOptions = {
    ...options,
    // One machine for the session: its facts do not change while an agent runs,
    // and the environment step's inputs then stay equal from render to render.
    machine: options.machine ?? realMachine(),
  };
  const memos = new Map<string, StepMemo>();
  const runner = memoizingRunner(memos, settleMs);
  let previous: RenderResult | undefined;
  const touch: TouchState = { delivered: new Set(), overrides: {}, wrappers: undefined };
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();

  const assertOpen = () => {
    if (closed) {
      throw new SyspromptError("session-closed", "render: the session is closed; create a new one");
    }
  };
  const renderNow = async (overrides: SessionOverrides): Promise<SessionRender> => {
    assertOpen(); // closed while this render waited for the one before
    const prepared = await preparePrompt({ ...base, ...overrides }, runner);
    let result = renderPrepared(prepared);
    if (keep) {
      const trusted = prepared.opts?.trusted ?? overrides.projectTrusted !== false;
      // Taken under the other trust: a project's own session section (`cache: session`) and
      // what trust let the tree and the AGENTS.md list show do not outlive the consent they
      // were read under (pi's trust.json saying "no" now), nor wait out an untrusted start.
      if (taken && takenTrusted !== trusted) taken = undefined;
      if (taken) result = withTakenSessionSections(result, taken);
      else if (result.steps.every((s) => s.status !== "timeout")) {
        taken = takeSessionSections(result);
        takenTrusted = trusted;
      }
    }
    touch.overrides = overrides;
    touch.wrappers = prepared.templates;
    touch.wrapperNames = prepared.wrapperNames;
    const changes = previous ? diffSections(previous.sections, result.sections) : undefined;
    previous = result;
    return { result, changes };
  };

  return {
    async render(overrides = {}) {
      checkOverrides(overrides);
      assertOpen();
      const rendered = queue.then(() => renderNow(overrides));
      queue = rendered.catch(() => undefined);
      return rendered;
    },
    refresh() {
      assertOpen();
      taken = undefined;
    },
    async contextFor(paths, options = {}) {
      assertOpen();
      const { appendable, ...asked } = options;
      const found = queue.then(async () => {
        assertOpen();
        const before = appendable === undefined ? undefined : new Set(touch.delivered);
        const touched = await sessionContextFor(
          paths,
          { ...base, ...touch.overrides },
          memos,
          touch,
          asked,
        );
        if (before === undefined || touched.files.length === 0) return touched;
        let given = false;
        try {
          given = appendable?.(touched.files) === true;
        } finally {
          // Nothing kept as given, in the queue, before another call looks (rev82d F2).
          if (!given)
            for (const key of touch.delivered) if (!before.has(key)) touch.delivered.delete(key);
        }
        return given ? touched : { files: [], diagnostics: touched.diagnostics };
      });
      queue = found.catch(() => undefined);
      return found;
    },
    forgetContext() {
      touch.delivered.clear();
    },
    close() {
      if (closed) return;
      closed = true;
      memos.clear();
      touch.delivered.clear();
      previous = undefined;
    },
  };
}

function checkOverrides(overrides: SessionOverrides): void {
  if (typeof overrides !== "object" || overrides === null || Array.isArray(overrides)) {
    throw new SyspromptError("bad-option", "render: overrides must be an object of options");
  }
  for (const key of SESSION_FIXED_OPTIONS) {
    if (Object.hasOwn(overrides, key)) {
      throw new SyspromptError(
        "bad-option",
        `render: "${key}" is fixed for the session (${SESSION_FIXED_OPTIONS.join(", ")} are); create a new session to change it`,
      );
    }
  }
}
