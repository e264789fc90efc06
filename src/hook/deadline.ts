/**
 * How long the hook (and opencode's plugin) may work on one call before it
 * answers with nothing: it runs on every tool call, and the agent waits.
 * A first call in a session loads config, preset and rules; on a loaded
 * machine that takes a second or two. A module of its own: the quick path
 * and the full path both read it, and the quick path loads nothing else.
 */
export const HOOK_DEADLINE_MS = 5000;

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
