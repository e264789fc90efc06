/**
 * What pi's command line said, read the way pi 1.6.0 reads it
 * (`dist/cli/args.js`, `parseArgs`). pi passes an extension neither its
 * `--approve` / `--no-approve` override nor the value a boolean extension flag
 * swallowed (it sets the flag to `true` and drops the value), so the
 * extension reads `process.argv` itself. Only the parts that decide those two
 * things are mirrored: which arguments are values of an option, and where the
 * options end (`--`).
 */

/** Options whose next argument is their value, whatever it looks like. */
const VALUE_OPTIONS = new Set([
  "--provider",
  "--model",
  "--api-key",
  "--system-prompt",
  "--append-system-prompt",
  "--name",
  "-n",
  "--session",
  "--session-id",
  "--fork",
  "--session-dir",
  "--models",
  "--tools",
  "-t",
  "--exclude-tools",
  "-xt",
  "--thinking",
  "--export",
  "--extension",
  "-e",
  "--skill",
  "--prompt-template",
  "--theme",
]);

/** Options whose next argument is their value unless it starts with `-`. */
const OPTIONAL_VALUE_OPTIONS = new Set(["--mode", "--use-theme", "--tui-mode"]);

/** pi's own options that take no value; any other `--name` is an extension's flag. */
const PI_SWITCHES = new Set([
  "--help",
  "--version",
  "--continue",
  "--resume",
  "--no-session",
  "--no-tools",
  "--no-builtin-tools",
  "--no-extensions",
  "--no-mcp",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--verbose",
  "--offline",
  "--approve",
  "--no-approve",
]);

/** An extension flag as written: `true` when no value was taken, else the value pi took. */
export type PiFlagArgument = { value: true } | { value: string; attached: boolean };

export interface PiArguments {
  /** The last `--approve` / `-a` (true) or `--no-approve` / `-na` (false); undefined for neither. */
  trustOverride: boolean | undefined;
  /** Extension flags by name (without `--`), the last occurrence of each. */
  flags: Map<string, PiFlagArgument>;
  /** True when `--no-context-files` was given: pi's empty list of context files then means "off", not "none found". */
  noContextFiles: boolean;
}

/** Reads pi's arguments (`process.argv.slice(2)`): the trust override and the extension flags. */
export function readPiArguments(args: readonly string[]): PiArguments {
  let trustOverride: boolean | undefined;
  let noContextFiles = false;
  const flags = new Map<string, PiFlagArgument>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (arg === "--") break;
    if (arg === "--approve" || arg === "-a") trustOverride = true;
    else if (arg === "--no-approve" || arg === "-na") trustOverride = false;
    else if (arg === "--no-context-files") noContextFiles = true;
    else if (VALUE_OPTIONS.has(arg)) {
      if (next !== undefined) i++;
    } else if (OPTIONAL_VALUE_OPTIONS.has(arg)) {
      if (next !== undefined && !next.startsWith("-")) i++;
    } else if (arg === "--print" || arg === "-p") {
      // The message right after -p belongs to it (pi: not `@…`, not `-…` unless `---…`).
      if (
        next !== undefined &&
        !next.startsWith("@") &&
        (!next.startsWith("-") || next.startsWith("---"))
      )
        i++;
    } else if (arg === "--list-models") {
      if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) i++;
    } else if (arg.startsWith("--") && !PI_SWITCHES.has(arg)) {
      const eq = arg.indexOf("=");
      if (eq !== -1) {
        flags.set(arg.slice(2, eq), { value: arg.slice(eq + 1), attached: true });
      } else if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
        flags.set(arg.slice(2), { value: next, attached: false });
        i++;
      } else {
        flags.set(arg.slice(2), { value: true });
      }
    }
  }
  return { trustOverride, flags, noContextFiles };
}
