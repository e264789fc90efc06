import { type Argument, type Command, Command as NewCommand, type Option } from "commander";
import { code, markdownTable } from "../_markdown-table.js";
import { createProgram } from "./main.js";
import { declareRenderFlags } from "./options.js";

const HELP_FLAGS = "-h, --help";

/** The text a command's `--help` prints after its options (its examples), through `written`. */
function helpAfter(command: Command, written: { text: string }): string {
  written.text = "";
  command.outputHelp();
  const own = command.helpInformation();
  if (!written.text.startsWith(own)) throw new Error(`${command.name()}: help is not as expected`);
  return written.text.slice(own.length).trim();
}

/** Help text (plain text with some `code`) as Markdown: `<agent>` and `*.md` outside code stay literal. */
function plain(text: string): string {
  return text
    .split("`")
    .map((part, i) => (i % 2 === 1 ? part : part.replaceAll("<", "&lt;").replaceAll("*", "\\*")))
    .join("`");
}

/** `<agent>`, `[names...]`: an argument as the usage line writes it. */
function argumentTerm(argument: Argument): string {
  const name = `${argument.name()}${argument.variadic ? "..." : ""}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

/** A command's own options as rows, the render flags given as one row that links to their table. */
function optionRows(command: Command, renderFlags: ReadonlySet<string>): string[][] {
  const help = command.createHelp();
  const options = help.visibleOptions(command).filter((o) => o.flags !== HELP_FLAGS);
  const rendering = [...renderFlags].every((f) => options.some((o) => o.flags === f));
  const own = rendering ? options.filter((o) => !renderFlags.has(o.flags)) : options;
  return [
    ...help
      .visibleArguments(command)
      .map((a) => [code(argumentTerm(a)), plain(help.argumentDescription(a))]),
    ...(rendering ? [["[the render flags](#render-flags)", "what to render and from where"]] : []),
    ...own.map((o) => optionRow(command, o)),
  ];
}

function optionRow(command: Command, option: Option): string[] {
  const help = command.createHelp();
  return [code(help.optionTerm(option)), plain(help.optionDescription(option))];
}

/**
 * docs/cli.md's reference, generated from the commander program itself
 * ({@link createProgram}): per command its usage line, description,
 * arguments, options and examples, with the render flags in one table
 * of their own. test/docs/cli-reference.test.ts fails when the page differs.
 */
export function cliReference(): string {
  const written = { text: "" };
  const io = { stdout: (t: string) => (written.text += t), stderr: () => {}, cwd: "/", env: {} };
  const { program } = createProgram(io);
  const flagsOf = declareRenderFlags(new NewCommand("render-flags"));
  const renderFlags = new Set(flagsOf.options.map((o) => o.flags));
  const help = program.createHelp();
  const commands = help.visibleCommands(program).filter((c) => c.name() !== "help");
  const out = [
    "",
    "```",
    help.commandUsage(program),
    "```",
    "",
    `${plain(help.commandDescription(program))}`,
    "",
    ...markdownTable(
      ["command", "what it does"],
      commands.map((c) => [`[${c.name()}](#${c.name()})`, plain(help.commandDescription(c))]),
    ),
    "",
    ...markdownTable(
      ["option", "what it does"],
      help.visibleOptions(program).map((o) => optionRow(program, o)),
    ),
    "",
    `Every command takes ${code(HELP_FLAGS)}: its help, the text of its part below.`,
  ];
  for (const command of commands) {
    const after = helpAfter(command, written);
    out.push(
      "",
      `### ${command.name()}`,
      "",
      "```",
      help.commandUsage(command),
      "```",
      "",
      `${plain(help.commandDescription(command))}.`,
      "",
      ...markdownTable(["argument or option", "what it does"], optionRows(command, renderFlags)),
      ...(after === "" ? [] : ["", "```", after, "```"]),
    );
  }
  out.push(
    "",
    "### Render flags",
    "",
    `The flags of every command that renders (${commands
      .filter((c) => optionRows(c, renderFlags).some((r) => r[0]?.includes("#render-flags")))
      .map((c) => code(c.name()))
      .join(", ")}); each sets one option of`,
    "[the options reference](options.md#options-reference), where its `sysprompt.yaml` key and default are.",
    "",
    ...markdownTable(
      ["flag", "what it does"],
      flagsOf.options.map((o) => optionRow(flagsOf, o)),
    ),
    "",
  );
  return out.join("\n");
}
