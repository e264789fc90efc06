import { homeFolder } from "../../_paths.js";
import { HOOK_EVENTS, isHookAgent } from "../../hook/input.js";
import { hookReply } from "../../hook/reply.js";
import { HOOK_DEADLINE_MS, runHook } from "../../hook/run.js";
import { readInput } from "../_stdin.js";
import { type CliIo, EXIT_OK, UsageError } from "../io.js";

/** Most bytes of hook input read (a Write's content and a Read's output come with it). */
export const MAX_HOOK_INPUT_BYTES = 32 * 1024 * 1024;

/**
 * `sysprompt hook AGENT`: reads the agent's after-tool hook input on stdin
 * and prints its reply, with the instructions the call's paths bring in
 * (see `runHook`). Exit 0 whatever the input, the project or the file
 * system did, with at most one line on stderr; only an unknown AGENT is
 * usage (exit 2), which the hook's own settings line decides, not the call.
 */
export async function hookCommand(agent: string, io: CliIo): Promise<number> {
  if (!isHookAgent(agent)) {
    throw new UsageError(
      `hook: no hook for ${JSON.stringify(agent.slice(0, 60))}; the agents are ${Object.keys(HOOK_EVENTS).join(", ")} (opencode takes the plugin: sysprompt export --agent opencode --hooks)`,
    );
  }
  let timer: NodeJS.Timeout | undefined;
  let past = false;
  const late = new Promise<{ reply: string; note: string }>((done) => {
    timer = setTimeout(() => {
      past = true;
      done({
        reply: hookReply(agent, undefined),
        note: `took more than ${HOOK_DEADLINE_MS} ms: nothing added`,
      });
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
    return runHook(agent, text, { env: io.env, home: io.home ?? homeFolder() }, () => past);
  })();
  const outcome = await Promise.race([work, late]);
  clearTimeout(timer);
  io.stdout(outcome.reply);
  if (outcome.note !== undefined) io.stderr(`sysprompt hook: ${outcome.note}\n`);
  return EXIT_OK;
}
