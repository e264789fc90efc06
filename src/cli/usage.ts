import type { Command } from "commander";

/** What `usageError` says of a command: `sysprompt render` and `[options]`. */
export interface UsageOf {
  name: string;
  usage: string;
}

/** The whole program's usage, for a mistake made before any command is known. */
export const PROGRAM_USAGE: UsageOf = { name: "sysprompt", usage: "[options] [command]" };

/** `sysprompt render` and its usage line, as commander has them. */
export function usageOf(command: Command): UsageOf {
  const parent = command.parent ? `${command.parent.name()} ` : "";
  return { name: `${parent}${command.name()}`, usage: command.usage() };
}

/**
 * What every usage error (exit 2) prints on stderr, whoever found it
 * (commander, a command, the launcher): the mistake on one line, then one
 * hint line with the command's usage and where its help is. The whole help
 * would bury the one line that matters.
 */
export function usageError(message: string, of: UsageOf): string {
  return `sysprompt: ${oneLine(message)}\nUsage: ${of.name} ${of.usage}; see \`${of.name} --help\`.\n`;
}

/** What a refusal of what is on disk prints on stderr: its one line, and no usage: the command line was right. */
export function refusal(message: string): string {
  return `sysprompt: ${oneLine(message)}\n`;
}

/**
 * Commander's wording as one line of ours: without its `error: ` and with
 * its suggestion, which it puts on a line of its own, in brackets after it.
 */
function oneLine(message: string): string {
  const [first = "", ...more] = message
    .replace(/^error: /, "")
    .trimEnd()
    .split("\n");
  const suggestion = more.join(" ").replace(/^\(Did you mean/, "(did you mean");
  return suggestion === "" ? first : `${first} ${suggestion}`;
}
