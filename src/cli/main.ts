import { Command, CommanderError, Option } from "commander";
import { SyspromptError } from "../types.js";
import { VERSION } from "../version.js";
import {
  type CliIo,
  EXIT_OK,
  EXIT_PROBLEMS,
  EXIT_USAGE,
  FailedError,
  RefusedError,
  terminalSafe,
  UsageError,
} from "./io.js";
import {
  countSingleValues,
  declareRenderFlags,
  refuseRepeatedFlags,
  refuseUnusablePaths,
  settleWorkingFolder,
} from "./options.js";
import { PROGRAM_USAGE, refusal, type UsageOf, usageError, usageOf } from "./usage.js";

const STRICT = "exit 1 when an error-level diagnostic was reported";

/**
 * Runs the CLI on `argv` (without `node` and the script) and returns the exit
 * code. Only this folder writes output; the caller sets the process exit code.
 */
export async function run(argv: readonly string[], given: CliIo): Promise<number> {
  // Once, for every command: nothing a repository wrote reaches the terminal as a control character.
  const io = terminalSafe(given);
  const { program, exitCode } = createProgram(io, argv[0]);

  // Which command a usage error found after parsing belongs to: the one whose action ran.
  let current: UsageOf = PROGRAM_USAGE;
  for (const command of [program, ...program.commands]) {
    command.configureOutput({
      outputError: (message) => io.stderr(usageError(message, usageOf(command))),
    });
    countSingleValues(command);
    command.hook("preAction", (_, action) => {
      current = usageOf(command);
      // In the command's own hook (a parent's runs first), so the usage line is the command's.
      if (action === command) {
        refuseRepeatedFlags(command);
        refuseUnusablePaths(command);
        settleWorkingFolder(command, io);
      }
    });
  }

  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode();
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; everything else commander rejects is usage.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (error instanceof RefusedError) {
      io.stderr(refusal(error.message));
      return EXIT_USAGE;
    }
    // The environment is at fault (a shared cache folder), not the arguments: no usage line (review rev77d F3).
    if (error instanceof SyspromptError && error.code === "bad-environment") {
      io.stderr(refusal(error.message));
      return EXIT_USAGE;
    }
    if (error instanceof FailedError) {
      io.stderr(refusal(error.message));
      return EXIT_PROBLEMS;
    }
    if (error instanceof UsageError || error instanceof SyspromptError) {
      io.stderr(usageError(error.message, current));
      return EXIT_USAGE;
    }
    throw error;
  }
}

/**
 * The program: every command with its arguments, flags, help and action.
 * `exitCode()` is what the action that ran returned. docs/cli.md's reference
 * is generated from it (src/cli/reference.ts), so the help is the reference.
 * `only`, a command line's first word, registers that command alone when it
 * names one (the CLI passes it; the reference does not).
 */
export function createProgram(
  io: CliIo,
  only?: string,
): { program: Command; exitCode: () => number } {
  let code = EXIT_OK;
  const program = new Command("sysprompt")
    .description("Build a coding agent's system prompt from Markdown section templates.")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .version(VERSION);

  // The render flags come from the option registry; --strict is the CLI's own.
  const renderFlags = (cmd: Command) => declareRenderFlags(cmd).option("--strict", STRICT);
  // A command that reads the layers without rendering takes the same two folder flags.
  const folderFlags = (cmd: Command) => declareRenderFlags(cmd, ["cwd", "agentDir"]);

  // Each command's registration, by name. A command line that names one
  // registers only that one: commander builds every option of every command
  // it is given, and the other eleven cost a `render` more than its own.
  // Nothing a command does or prints depends on its siblings (a subcommand's
  // help, errors and suggestions are its own); a line that names none (help,
  // an unknown command, a typo), and the generated reference, get them all.
  const commands: Record<string, () => void> = {
    render: () => {
      renderFlags(program.command("render").description("print the system prompt"))
        .option("--json", "print the whole result (text, sections, diagnostics, steps) as JSON")
        .addOption(new Option("--section <name>", "print only this section"))
        .option(
          "--format <format>",
          "text (default), anthropic (the Messages API system array, with cache breakpoints) or openai (the system message)",
        )
        .option(
          "-o, --output <file>",
          "write the prompt to this file instead of stdout, only when its bytes change (- is stdout); a name ending .md, .markdown, .mdc, .txt or .prompt, or an agent's rule file (.cursorrules …; .json for JSON)",
        )
        .option(
          "--force",
          "with -o: write onto a file this render reads (your agent dir's AGENTS.md, APPEND_SYSTEM.md, SYSTEM.md) or an instructions file out of the project that agents load in the folders below it (~/work/AGENTS.md), or a trusted project's prompt onto an agent's global instructions file (~/.gemini/GEMINI.md)",
        )
        .addHelpText(
          "after",
          example(
            "sysprompt render --model gpt-5 --tree > prompt.md",
            "the prompt; problems on stderr",
          ),
        )
        .action(async (flags) => {
          const { renderCommand } = await import("./commands/render.js");
          code = await renderCommand(flags, io);
        });
    },
    sections: () => {
      renderFlags(
        program
          .command("sections")
          .description("list the sections with their order, layer, status in this render and file"),
      )
        .option("--json", "print the sections, the custom base prompt and the diagnostics as JSON")
        .addHelpText(
          "after",
          example("sysprompt sections --untrusted", "what an untrusted checkout gets"),
        )
        .action(async (flags) => {
          const { sectionsCommand } = await import("./commands/sections.js");
          code = await sectionsCommand(flags, io);
        });
    },
    explain: () => {
      renderFlags(
        program
          .command("explain")
          .description(
            "where every byte comes from: sections with layer, file, bytes and tokens; context files; steps; cache-stable prefix",
          ),
      )
        .option("--json", "print the whole report as JSON")
        .option(
          "--simulate",
          "re-render a temporary copy under typical agent actions (an edit, a new file or folder, the next day, a tool, an AGENTS.md edit): how much of the prompt's prefix each keeps, and which section broke it",
        )
        .addHelpText(
          "after",
          `${example("sysprompt explain --model gpt-5", "tokens are an o200k estimate")}\n  $ sysprompt explain --simulate --tree    # what an agent's edits do to the prompt cache`,
        )
        .action(async (flags) => {
          const { explainCommand } = await import("./commands/explain.js");
          code = await explainCommand(flags, io);
        });
    },
    watch: () => {
      renderFlags(
        program
          .command("watch")
          .description(
            "re-render on every change to a file the prompt reads; show which sections changed",
          ),
      )
        .option(
          "--export",
          "also write the prompt to --agent's export file (as `sysprompt export`) whenever its bytes change",
        )
        .option(
          "--out <path>",
          "with --export: write here (a name ending .md or .txt) instead of the default export file",
        )
        .addHelpText(
          "after",
          example("sysprompt watch --model gpt-5", "then edit .pi/sections/*.md; Ctrl-C stops"),
        )
        .action(async (flags) => {
          const { watchCommand } = await import("./commands/watch.js");
          code = await watchCommand(flags, io);
        });
    },
    export: () => {
      renderFlags(
        program
          .command("export")
          .description(
            "write the prompt where another agent reads it (only when its bytes change) and print the one line that makes the agent read it",
          ),
      )
        .option(
          "--out <path>",
          "write here (a name ending .md or .txt) instead of the project's file in $XDG_CACHE_HOME/sysprompt/export/<agent>/ (default ~/.cache/sysprompt/export/<agent>/)",
        )
        .option(
          "--force",
          "with --out: write onto a file this render reads (your agent dir's AGENTS.md, APPEND_SYSTEM.md, SYSTEM.md) or an instructions file out of the project that agents load in the folders below it (~/work/AGENTS.md), or a trusted project's prompt onto an agent's global instructions file (~/.gemini/GEMINI.md)",
        )
        .option(
          "--hooks",
          "print instead the agent's settings that run `sysprompt hook` after its tool calls (opencode: the plugin file); nothing is written",
        )
        .addHelpText(
          "after",
          example(
            "sysprompt export --agent gemini-cli",
            "prints GEMINI_SYSTEM_MD=…; add it to gemini's environment",
          ),
        )
        .action(async (flags) => {
          const { exportCommand } = await import("./commands/export.js");
          code = await exportCommand(flags, io);
        });
    },
    hook: () => {
      program
        .command("hook")
        .description(
          "run from another agent's after-tool hook: add the nested instructions and glob rules the call's paths bring in, once per session",
        )
        .argument("<agent>", "the agent whose hook runs it: claude-code, codex or gemini-cli")
        .option(
          "--untrusted",
          "treat the project as untrusted, as render --untrusted does: no .pi layer (rules, presets, sysprompt.yaml), and its files' imports held to the project's non-private files",
        )
        .addHelpText(
          "after",
          example(
            "sysprompt export --agent claude-code --hooks",
            "prints the settings that run `sysprompt hook claude-code`",
          ),
        )
        .action(async (agent: string, flags: { untrusted?: boolean }) => {
          const { hookCommand } = await import("./commands/hook.js");
          code = await hookCommand(agent, io, flags);
        });
    },
    expand: () => {
      folderFlags(
        program
          .command("expand")
          .description(
            "print a slash command expanded: /name args (a prompt template) or /skill:name args (a skill)",
          )
          .argument("<text>", "the text to expand"),
      )
        .option("--untrusted", "skip the project's templates and skills")
        .option("--strict", STRICT)
        .addHelpText("after", example('sysprompt expand "/review src/a.ts"', "$1 is src/a.ts"))
        .action(async (text: string, flags) => {
          const { expandCommand } = await import("./commands/expand.js");
          code = await expandCommand(text, flags, io);
        });
    },
    list: () => {
      folderFlags(
        program
          .command("list")
          .description("list slash-command templates and skills, with sources and diagnostics"),
      )
        .option("--untrusted", "skip the project's templates and skills")
        .option("--json", "print as JSON")
        .option("--strict", STRICT)
        .addHelpText(
          "after",
          example("sysprompt list --json", "templates, skills and their sources"),
        )
        .action(async (flags) => {
          const { listCommand } = await import("./commands/list.js");
          code = await listCommand(flags, io);
        });
    },
    check: () => {
      folderFlags(
        program
          .command("check")
          .description("compile and validate every template, skill and prompt template"),
      )
        .option("--untrusted", "skip the project's SYSTEM/APPEND/sections/skills/templates")
        .option("--strict", "warnings fail too (exit 1)")
        .option("--json", "print the whole report as JSON")
        .addHelpText(
          "after",
          example("sysprompt check --strict", "the line a project adds to its CI"),
        )
        .action(async (flags) => {
          const { checkCommand } = await import("./commands/check.js");
          code = await checkCommand(flags, io);
        });
    },
    eject: () => {
      folderFlags(
        program
          .command("eject")
          .description("copy builtin section templates into the project for editing")
          .argument("[names...]", "builtin section names (see `sysprompt sections`)"),
      )
        .option("--all", "every builtin section")
        .option("--user", "copy into the user layer (<agent-dir>/sections) instead")
        .option("--force", "replace files that already exist")
        .option("--json", "print what was written as JSON")
        .option(
          "--diff",
          "for one ejected section (or general-rules, the list eject rules copies): the builtin it was copied from, the builtin now, and the copy",
        )
        .addHelpText(
          "after",
          example("sysprompt eject rules tools", "then edit .pi/sections/rules.md"),
        )
        .action(async (names: string[], flags) => {
          const { ejectCommand } = await import("./commands/eject.js");
          code = await ejectCommand(names, flags, io);
        });
    },
    snapshot: () => {
      program
        .command("snapshot")
        .description(
          "render *.scenario.yaml files and compare each with its golden <name>.md (exit 1 on drift)",
        )
        .argument(
          "[dir]",
          "folder of the scenarios (default: snapshots), or one *.scenario.yaml file",
        )
        .option("--update", "write the golden files that differ (and only those)")
        .option("--json", "print the whole report as JSON")
        .addHelpText(
          "after",
          `${example("sysprompt snapshot", "check snapshots/*.scenario.yaml; prints a diff per drift")}\n  $ sysprompt snapshot snapshots --update    # then review the rewritten goldens in git diff`,
        )
        .action(async (dir: string | undefined, flags) => {
          const { snapshotCommand } = await import("./commands/snapshot.js");
          code = await snapshotCommand(dir, flags, io);
        });
    },
    serve: () => {
      renderFlags(
        program
          .command("serve")
          .description(
            "a live inspector page on 127.0.0.1: sections, token bars, diagnostics, diffs",
          ),
      )
        .option("--port <n>", "port to listen on (default: a free one, printed)")
        .option(
          "--host <host>",
          "127.0.0.1 or localhost; nothing else is allowed (default: 127.0.0.1)",
        )
        .option("--open", "open the page (its address, token included) in the default browser")
        .addHelpText(
          "after",
          example("sysprompt serve --open", "then edit .pi/sections/*.md and watch the page"),
        )
        .action(async (flags) => {
          const { serveCommand } = await import("./commands/serve.js");
          code = await serveCommand(flags, io);
        });
    },
  };
  const named = only !== undefined && Object.hasOwn(commands, only) ? only : undefined;
  for (const [name, register] of Object.entries(commands)) {
    if (named === undefined || name === named) register();
  }

  return { program, exitCode: () => code };
}

function example(command: string, note: string): string {
  return `\nExample:\n  $ ${command}    # ${note}`;
}
