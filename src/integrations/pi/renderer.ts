import type { TouchedContext } from "../../gather/context/index.js";
import type { SystemPromptOptions } from "../../options.js";
import {
  createPromptSession,
  type PromptSession,
  SESSION_FIXED_OPTIONS,
} from "../../session/index.js";
import type { ContextForAsked } from "../../session/session.js";
import type { RenderResult } from "../../types.js";

/**
 * What the extension renders with, one per pi session: made on
 * `session_start` (or at the first render), closed on `session_shutdown`.
 * Each render gets the whole options of that turn.
 */
export interface PromptRenderer {
  render(options: SystemPromptOptions): Promise<RenderResult>;
  /** The next render takes fresh session sections (`/sysprompt refresh`). */
  refresh?(): void;
  /** The session's `contextFor`: files `paths` bring in, each once; nothing before the first render. */
  contextFor?(paths: readonly string[], options?: ContextForAsked): Promise<TouchedContext>;
  /** The session's `forgetContext`: what `contextFor` gave comes once more. */
  forgetContext?(): void;
  close(): void;
}

/**
 * A renderer backed by one prompt session: a turn re-reads only what changed on
 * disk since the last one. The session is made from the first turn's options;
 * a turn whose session-wide options (cwd, agent dir, env…) differ starts a new one.
 *
 * The session keeps its session sections (tree, AGENTS.md list, environment,
 * date) as the first turn took them (`keepSessionSections`), so the prompt pi
 * sends changes only when a file written for the agent does, until
 * {@link PromptRenderer.refresh}. A turn with another model takes fresh ones
 * too: the environment section names the model, and must not name the old one.
 */
export function sessionRenderer(): PromptRenderer {
  let session: PromptSession | undefined;
  let fixedKey = "";
  let model: string | undefined;
  return {
    async render(options) {
      const fixed = Object.fromEntries(SESSION_FIXED_OPTIONS.map((k) => [k, options[k]]));
      const key = JSON.stringify(fixed);
      if (session === undefined || key !== fixedKey) {
        session?.close();
        session = createPromptSession(fixed, { keepSessionSections: true });
        fixedKey = key;
        model = options.model;
      } else if (options.model !== model) {
        session.refresh();
        model = options.model;
      }
      const overrides = Object.fromEntries(
        Object.entries(options).filter(
          ([k]) => !(SESSION_FIXED_OPTIONS as readonly string[]).includes(k),
        ),
      );
      return (await session.render(overrides)).result;
    },
    refresh() {
      session?.refresh();
    },
    async contextFor(paths, options) {
      return session ? session.contextFor(paths, options) : { files: [], diagnostics: [] };
    },
    forgetContext() {
      session?.forgetContext();
    },
    close() {
      session?.close();
      session = undefined;
    },
  };
}
