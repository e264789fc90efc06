import type { SystemPromptOptions } from "../../options.js";
import { renderSystemPrompt } from "../../render-system-prompt.js";
import type { RenderResult } from "../../types.js";

/**
 * What the extension renders with, one per pi session: made on
 * `session_start` (or at the first render), closed on `session_shutdown`.
 * Each render gets the whole options of that turn.
 */
export interface PromptRenderer {
  render(options: SystemPromptOptions): Promise<RenderResult>;
  close(): void;
}

/** A renderer that keeps nothing between renders: every render gathers afresh. */
export function statelessRenderer(): PromptRenderer {
  return { render: (options) => renderSystemPrompt(options), close: () => {} };
}
