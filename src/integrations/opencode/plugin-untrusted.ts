/**
 * sysprompt's opencode plugin for untrusted projects, as `sysprompt hook AGENT --untrusted` is
 * for the other agents: no project layer, config or `.pi` rules, and the door's private-path
 * rules on its files' imports (review rev107a F1). What `export --agent opencode --untrusted
 * --hooks` names. opencode calls every function this module exports as a plugin, so it exports one.
 */
import { afterToolPlugin, type PluginInput } from "./_after-tool.js";

export async function SyspromptPlugin(ctx: PluginInput) {
  return afterToolPlugin(ctx, false);
}
