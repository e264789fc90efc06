/**
 * sysprompt's opencode plugin, the project trusted (`plugin-untrusted.js`: untrusted): after
 * each tool call, the nested instructions and glob rules its paths bring in are appended to the
 * tool's output, once per opencode session, as `sysprompt hook` does for the other agents.
 * opencode calls every function this module exports as a plugin, so it exports one.
 */
import { afterToolPlugin, type PluginInput } from "./_after-tool.js";

export async function SyspromptPlugin(ctx: PluginInput) {
  return afterToolPlugin(ctx, true);
}
