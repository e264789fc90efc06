/**
 * sysprompt's opencode plugin, as `plugin.js` (the project trusted) and
 * `plugin-untrusted.js` (`--untrusted`) export it: after each tool call, the
 * nested instructions and glob rules its paths bring in are appended to the
 * tool's output, once per opencode session, as `sysprompt hook` does for the
 * other agents (state in the same cache folder).
 *
 * Hook shape (opencode's plugin API, `tool.execute.after`): `input` is
 * `{ tool, sessionID, callID, args }`, `output` is `{ title, output,
 * metadata }`; the plugin gets `{ directory, worktree, … }` once.
 */

import { hostClosing } from "../../_fence.js";
import { homeFolder } from "../../_paths.js";
import type { HookProgress } from "../../hook/deadline.js";
import { MAX_RESULT_TEXT } from "../../hook/reply.js";
import { callContext, HOOK_DEADLINE_MS } from "../../hook/run.js";

export interface PluginInput {
  directory?: unknown;
}

export interface ToolInput {
  tool?: unknown;
  sessionID?: unknown;
  callID?: unknown;
  args?: unknown;
}

export interface ToolOutput {
  output?: unknown;
}

/**
 * The plugin's hooks for opencode started in `ctx.directory`. `trusted` false: the project is
 * untrusted, as for `sysprompt hook AGENT --untrusted` (review rev107a F1); opencode has no
 * setting for a plugin file, so each trust has a file of its own.
 */
export async function afterToolPlugin(ctx: PluginInput, trusted: boolean) {
  const cwd = typeof ctx?.directory === "string" ? ctx.directory : process.cwd();
  return {
    "tool.execute.after": async (input: ToolInput, output: ToolOutput): Promise<void> => {
      if (typeof input?.tool !== "string" || typeof input.sessionID !== "string") return;
      if (typeof output?.output !== "string") return;
      // Too long to read for what it leaves open (see MAX_RESULT_TEXT): nothing follows it, nothing is given.
      if (output.output.length > MAX_RESULT_TEXT) return;
      const call = {
        sessionId: input.sessionID,
        cwd,
        tool: input.tool,
        input: (typeof input.args === "object" && input.args !== null ? input.args : {}) as Record<
          string,
          unknown
        >,
      };
      let timer: NodeJS.Timeout | undefined;
      let past = false;
      // At the budget, your own glob rules matched for the call are added, when ready (fx82d).
      const progress: HookProgress = {};
      const late = new Promise<{ text?: string }>((done) => {
        timer = setTimeout(() => {
          past = true;
          done(progress.ownText === undefined ? {} : { text: progress.ownText });
        }, HOOK_DEADLINE_MS);
      });
      // The tool's output is the repository's text too (a file `cat` printed): a fence, comment or
      // never-shown element (`<div hidden>`) it leaves open is closed first, or the files given would read as part of it.
      // Worked out only when files come, before they are kept as given: an output nothing can
      // follow (`<plaintext>`) gets none, and they come with a later call (rev82d F2).
      const closer = hostClosing(output.output);
      const appendable = () => closer() !== undefined;
      // callContext never throws; a late answer leaves the output as the tool made it, and
      // the session's state as it was.
      const where = {
        env: process.env,
        home: homeFolder(),
        ...(trusted ? {} : { trusted: false }),
      };
      const found = await Promise.race([
        callContext("opencode", call, where, () => past, { appendable, progress }),
        late,
      ]);
      clearTimeout(timer);
      const closing = found.text === undefined ? undefined : closer();
      if (found.text !== undefined && closing !== undefined)
        output.output = `${output.output}${closing}\n\n${found.text}`;
    },
  };
}
