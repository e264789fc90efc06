import { isAbsolute, resolve } from "node:path";
import type { Command, Option } from "commander";
import {
  expandHome,
  homeFolder,
  NO_CURRENT_FOLDER,
  NOT_UTF8_PATH,
  resolveUserPath,
} from "../_paths.js";
import { parseNow } from "../_time.js";
import type { Machine } from "../gather/environment/index.js";
import { isText } from "../locate/text-or-path.js";
import { OPTION_SPECS, OPTIONS } from "../options/registry.js";
import type { SystemPromptOptions } from "../options.js";
import { UsageError } from "./io.js";

/**
 * The flags shared by commands that render, as commander gives them: one
 * attribute per registry flag (`treeDepth` for `--tree-depth`, `tree` for
 * `--tree` / `--no-tree`, `config` for `--no-config`), plus `--strict`.
 */
export interface RenderFlags {
  cwd?: string;
  agentDir?: string;
  agent?: string;
  strict?: boolean;
  [flag: string]: unknown;
}

/** Commander's attribute for a declaration: `--no-tree` → `tree`, `--tree-depth <n>` → `treeDepth`. */
export function flagAttribute(declaration: string): string {
  const long = (declaration.split(/[ ,]+/).find((p) => p.startsWith("--")) ?? "").slice(2);
  return long.replace(/^no-/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

type OptionName = keyof typeof OPTIONS;

/** The registry's flags, in its order, with their commander attribute. */
const FLAGS = OPTION_SPECS.flatMap(([name, spec]) =>
  spec.flag
    ? [{ name, flag: spec.flag, attribute: flagAttribute(spec.flag.declare[0]?.[0] ?? "") }]
    : [],
);

/**
 * Declares the registry's render flags on `cmd` (the help lists them in its
 * order): every one, or only those of `names` (`--cwd` and `--agent-dir` for a
 * command that does not render but reads the same folders).
 */
export function declareRenderFlags(cmd: Command, names?: readonly OptionName[]): Command {
  for (const { flag } of FLAGS.filter((f) => names === undefined || names.includes(f.name))) {
    for (const [flags, help] of flag.declare) {
      if (flag.repeatable) cmd.option(flags, help, collect);
      else cmd.option(flags, help);
    }
  }
  return cmd;
}

/**
 * `--cwd` and `--agent-dir`, absolute: relative to where the command runs
 * (not to each other), `~` the home folder.
 */
export function flagPaths(
  flags: { cwd?: string | undefined; agentDir?: string | undefined },
  cwd: string,
  home: string = homeFolder(),
): { cwd: string; agentDir?: string } {
  const resolved = resolveUserPath(flags.cwd ?? ".", cwd, home);
  return flags.agentDir === undefined
    ? { cwd: resolved }
    : { cwd: resolved, agentDir: resolveUserPath(flags.agentDir, cwd, home) };
}

/** A flag's or argument's value placeholder that names a path: `<dir>`, `<file>`, `<path>`, `[dir]`. */
const PATH_VALUE = /[<[](?:dir|file|path)(?:\.\.\.)?[>\]]$/;

/** A flag's placeholder whose value is text or a path, as {@link isText} tells: `<text|file>`. */
const TEXT_OR_PATH_VALUE = /<text\|file>$/;

/**
 * Refuses a path flag's or argument's value of `command` no file can be named by, before
 * anything resolves it. An empty one (`--agent-dir ""`, `--cwd ""`, `--root ""`, `-o ""`,
 * `snapshot ""`): a wrapper's unset variable (`--agent-dir "$AGENT_DIR"`) resolved to the working
 * folder, and an untrusted project became your agent dir (rev53d F1). One holding U+FFFD: Node
 * decodes an argument that is not UTF-8 so, and the string names another path (`-o out\xe9/p.md`
 * wrote to a new folder `out\uFFFD`, exit 0: rev60d F2); a real U+FFFD name is refused too, as the
 * working folder's is ({@link NOT_UTF8_PATH}). Every path flag is checked here, by its placeholder,
 * and a `<text|file>` flag's value when it is spelled as a path (not an empty one: blank text);
 * a `<text|file>` value of exactly `-` is refused, not taken as the text `-`.
 *
 * @throws UsageError naming the flag.
 */
export function refuseUnusablePaths(command: Command): void {
  const values = command.opts();
  const check = (shown: string, value: unknown) => {
    const all = Array.isArray(value) ? value : [value];
    if (all.some((v) => v === "")) {
      throw new UsageError(`${shown}: an empty path; name a file or folder`);
    }
    const lossy = all.find((v) => typeof v === "string" && v.includes("\uFFFD"));
    if (lossy !== undefined) throw new UsageError(`${shown}: ${NOT_UTF8_PATH}: ${lossy}`);
  };
  for (const option of command.options) {
    const value = values[option.attributeName()];
    if (PATH_VALUE.test(option.flags)) check(option.long ?? option.flags, value);
    // Text stays text, U+FFFD and all; a value spelled as a path is a path (rev64d F6).
    else if (TEXT_OR_PATH_VALUE.test(option.flags)) {
      const all: unknown[] = Array.isArray(value) ? value : [value];
      // `-` means standard input to a command line (this CLI's `-o -` too): as text it silently
      // replaced every base section with a dash (rev66d F4).
      if (all.includes("-")) {
        throw new UsageError(
          `${option.long ?? option.flags}: - is not standard input here; give the text, or the file's path (./- for a file named -)`,
        );
      }
      const paths = all.filter((v) => typeof v === "string" && !isText(v));
      check(option.long ?? option.flags, paths);
    }
  }
  command.registeredArguments.forEach((argument, i) => {
    const shown = argument.required ? `<${argument.name()}>` : `[${argument.name()}]`;
    if (PATH_VALUE.test(shown)) check(shown, command.processedArgs[i]);
  });
}

/**
 * From a deleted folder (`io.cwd` is "": bin.ts found no absolute $PWD) a command
 * runs only at an absolute `--cwd`, which then stands for the folder it runs in;
 * a relative path flag or argument names nothing there and is refused. A command
 * that reads no folder (`hook`: its paths come in its input) runs as it is.
 *
 * @throws UsageError when the command needs the folder that is gone.
 */
export function settleWorkingFolder(command: Command, io: { cwd: string; home?: string }): void {
  if (io.cwd !== "" || command.name() === "hook") return;
  const home = io.home ?? homeFolder();
  const absolute = (v: unknown) => typeof v !== "string" || isAbsolute(expandHome(v, home));
  const values = command.opts();
  const cwd = values.cwd;
  if (typeof cwd !== "string" || !absolute(cwd)) throw new UsageError(NO_CURRENT_FOLDER);
  const check = (shown: string, value: unknown) => {
    const relative = (Array.isArray(value) ? value : [value]).find((v) => !absolute(v));
    if (relative !== undefined) throw new UsageError(`${shown}: ${relative}: ${NO_CURRENT_FOLDER}`);
  };
  for (const option of command.options) {
    if (PATH_VALUE.test(option.flags))
      check(option.long ?? option.flags, values[option.attributeName()]);
  }
  command.registeredArguments.forEach((argument, i) => {
    const shown = argument.required ? `<${argument.name()}>` : `[${argument.name()}]`;
    if (PATH_VALUE.test(shown)) check(shown, command.processedArgs[i]);
  });
  io.cwd = resolve(expandHome(cwd, home));
}

/** The values each single-value flag of a command was given, as {@link countSingleValues} heard them. */
const GIVEN = new WeakMap<Command, Map<Option, string[]>>();

/**
 * Hears every value given to a flag of `command` that takes one value (a
 * value, not repeatable: `--section`, `-o`, `--cwd`), for {@link
 * refuseRepeatedFlags}. Call it once the command's flags are declared, before
 * the parse.
 */
export function countSingleValues(command: Command): void {
  const given = new Map<Option, string[]>();
  GIVEN.set(command, given);
  for (const option of command.options) {
    if (option.isBoolean() || option.variadic || option.parseArg === collect) continue;
    command.on(`option:${option.name()}`, (value: unknown) => {
      given.set(option, [...(given.get(option) ?? []), typeof value === "string" ? value : ""]);
    });
  }
}

/**
 * Refuses a single-value flag given more than once (`--section rules --section
 * tools`, `-o a.md -o b.md`): commander keeps the last, and a script that meant
 * two sections or two outputs got one, exit 0 (rev58d F7). The repeatable
 * flags (`--var`, `--root`, …) say so in their help.
 *
 * @throws UsageError naming the flag and its values.
 */
export function refuseRepeatedFlags(command: Command): void {
  for (const [option, values] of GIVEN.get(command) ?? []) {
    if (values.length < 2) continue;
    const shown = values.map((v) => JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v));
    throw new UsageError(
      `${option.long ?? option.flags}: given ${values.length} times (${shown.join(", ")}); it takes one value`,
    );
  }
}

/**
 * `--var NAME=value` flags as variables; a later flag for a name wins. The
 * value may be empty and may hold `=`.
 *
 * @throws UsageError for a flag without `=` or with a name templates cannot reach.
 */
export function parseVars(entries: readonly string[]): Record<string, string> {
  return flagValue("--var", OPTIONS.vars.flag.parse(entries, { cwd: "/", home: "/" })) ?? {};
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The value of a flag's parse, or a usage error naming the flag (`--deadline expects …`). */
function flagValue<T>(flag: string, result: { value: T } | { problem: string } | undefined) {
  if (result !== undefined && "problem" in result) {
    const problem = result.problem;
    throw new UsageError(`${flag}${problem.startsWith(":") ? "" : " "}${problem}`);
  }
  return result?.value;
}

/** Turns CLI flags into library options; a malformed flag value is a usage error. */
export function toRenderOptions(
  flags: RenderFlags,
  cwd: string,
  env: Record<string, string | undefined>,
  home?: string,
  machine?: Machine,
): SystemPromptOptions {
  const at = { cwd, home: home ?? homeFolder() };
  const set: Record<string, unknown> = { cwd: resolveUserPath(".", cwd, at.home), env };
  if (home !== undefined) set.home = home;
  if (machine !== undefined) set.machine = machine;
  const implied: Record<string, unknown> = {};
  for (const { name, flag, attribute } of FLAGS) {
    const raw = flags[attribute];
    const value =
      raw === undefined ? flag.cliDefault : flagValue(long(flag.declare), flag.parse(raw, at));
    if (value === undefined) continue;
    set[name] = value;
    Object.assign(implied, flag.implies);
  }
  // What a flag implies gives way to a flag of the option itself (--no-tree beats --tree-depth).
  for (const [name, value] of Object.entries(implied)) {
    if (!FLAGS.some((f) => f.name === name && flags[f.attribute] !== undefined)) set[name] = value;
  }
  // The library's own check, worded for the flag.
  if (typeof set.now === "string") parseNow(set.now, "--now");
  return set as SystemPromptOptions;
}

/**
 * The flag the user typed that set the option `name` (`--agent`; `--no-tree`
 * for false; `--tree-depth` for the tree it implies), or undefined when the
 * CLI set it itself (its folder as `cwd`, `configFiles`).
 */
export function typedFlag(name: OptionName, flags: RenderFlags): string | undefined {
  const own = FLAGS.find((f) => f.name === name);
  const raw = own && flags[own.attribute];
  // Commander gives a lone `--no-config` the value true when it is not typed.
  const negatedOnly = own?.flag.declare.every(([declared]) => declared.startsWith("--no-"));
  if (own && raw !== undefined && !(negatedOnly && raw === true)) {
    const negated = own.flag.declare.find(([declared]) => declared.startsWith("--no-"));
    return raw === false && negated ? long([negated]) : long(own.flag.declare);
  }
  const implying = FLAGS.find(
    (f) => f.flag.implies && name in f.flag.implies && flags[f.attribute] !== undefined,
  );
  return implying ? long(implying.flag.declare) : undefined;
}

/** `--tree-depth` of `--tree-depth <n>`. */
function long(declare: readonly (readonly [string, string])[]): string {
  return (declare[0]?.[0] ?? "").split(" ")[0] ?? "";
}
