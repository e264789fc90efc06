/**
 * How long the hook (and opencode's plugin) may work on one call before it
 * answers with nothing: it runs on every tool call, and the agent waits.
 * A first call in a session loads config, preset and rules; on a loaded
 * machine that takes a second or two. A module of its own: the quick path
 * and the full path both read it, and the quick path loads nothing else.
 */
export const HOOK_DEADLINE_MS = 5000;

/**
 * What a call has ready before its answer, for the answer given at
 * {@link HOOK_DEADLINE_MS} (fx82d): your own glob rules that match the call's
 * paths, matched before the project's files are read (they need no
 * repository reading), as the text they add, and the closer the reply starts
 * with. Past the budget the hook sends these, saying the project's part was cut,
 * where it sent nothing before (rev78b F2's limit).
 */
export interface HookProgress {
  /** `hookReply`'s closer for the call's result. */
  closer?: string;
  /** Your glob rules' text for the call, formatted as the full answer formats it. */
  ownText?: string;
}

/**
 * The deadline of a call's on-touch loading: the configured one (your
 * `sysprompt.yaml`'s; a project's file sets none), never past
 * {@link HOOK_DEADLINE_MS}.
 */
export function hookDeadline(configured: number | undefined): number {
  return configured === undefined || !(configured >= 0)
    ? HOOK_DEADLINE_MS
    : Math.min(configured, HOOK_DEADLINE_MS);
}
