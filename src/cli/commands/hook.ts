import { homeFolder } from "../../_paths.js";
import type { HookProgress } from "../../hook/deadline.js";
import { HOOK_EVENTS, type HookAgent, isHookAgent } from "../../hook/input.js";
import { hookReply } from "../../hook/reply.js";
import { HOOK_DEADLINE_MS, runHook } from "../../hook/run.js";
import { readInput } from "../_stdin.js";
import { type CliIo, EXIT_OK, UsageError } from "../io.js";

/** Most bytes of hook input read (a Write's content and a Read's output come with it). */
export const MAX_HOOK_INPUT_BYTES = 32 * 1024 * 1024;

/** The hook command line's flags. */
export interface HookFlags {
  /**
   * `--untrusted`: the project is untrusted, as for `render --untrusted` (no project layer,
   * config or `.pi` rules; the door's private-path rules on its files). The hook's trust is its
   * command line's, never the project's word (review rev107a F1).
   */
  untrusted?: boolean;
}

/**
 * `sysprompt hook AGENT [--untrusted]`: reads the agent's after-tool hook input on stdin
 * and prints its reply, with the instructions the call's paths bring in
 * (see `runHook`). Exit 0 whatever the input, the project or the file
 * system did, with at most one line on stderr; only an unknown AGENT is
 * usage (exit 2), which the hook's own settings line decides, not the call.
 */
export async function hookCommand(
  agent: string,
  io: CliIo,
  flags: HookFlags = {},
): Promise<number> {
  if (!isHookAgent(agent)) {
    throw new UsageError(
      `hook: no hook for ${JSON.stringify(agent.slice(0, 60))}; the agents are ${Object.keys(HOOK_EVENTS).join(", ")} (opencode takes the plugin: sysprompt export --agent opencode --hooks)`,
    );
  }
  let timer: NodeJS.Timeout | undefined;
  let past = false;
  // What the call has ready: at the budget, your own glob rules are sent (fx82d).
  const progress: HookProgress = {};
  const late = new Promise<{ reply: string; note: string }>((done) => {
    timer = setTimeout(() => {
      past = true;
      done(lateOutcome(agent, progress));
    }, HOOK_DEADLINE_MS);
  });
  const work = (async () => {
    let text: string;
    try {
      text = await (io.stdin ?? ((max) => readInput(0, max)))(MAX_HOOK_INPUT_BYTES);
    } catch (error) {
      return {
        reply: hookReply(agent, undefined),
        note: error instanceof Error ? error.message : String(error),
      };
    }
    return runHook(
      agent,
      text,
      {
        env: io.env,
        home: io.home ?? homeFolder(),
        ...(flags.untrusted === true ? { trusted: false } : {}),
      },
      () => past,
      progress,
    );
  })();
  const outcome = await Promise.race([work, late]);
  clearTimeout(timer);
  io.stdout(outcome.reply);
  if (outcome.note !== undefined) io.stderr(`sysprompt hook: ${outcome.note}\n`);
  return EXIT_OK;
}

/**
 * The answer at the budget: your own glob rules matched for the call when they were ready
 * (the project's part cut, said), else nothing. They are not recorded as given: a later
 * call that finishes gives them again with the project's part.
 */
function lateOutcome(agent: HookAgent, progress: HookProgress): { reply: string; note: string } {
  if (progress.ownText === undefined) {
    return {
      reply: hookReply(agent, undefined),
      note: `took more than ${HOOK_DEADLINE_MS} ms: nothing added`,
    };
  }
  return {
    reply: hookReply(agent, progress.ownText, progress.closer),
    note: `took more than ${HOOK_DEADLINE_MS} ms: only your own glob rules are given; the project's part (its context files and rules) was cut, and comes with a later call`,
  };
}
