// `sysprompt hook AGENT [--untrusted]` in a bundle of its own (dist/src/cli/hook.cjs, made by
// scripts/bundle-cli.mjs): the loader runs it for exactly those command lines, so the
// hook, which an agent starts on every tool call, loads no command parser and none
// of the other commands. Every other command line goes through bin.ts.
import { isAbsolute } from "node:path";
import { openOutput } from "./_fd-output.js";
import { onOutputError } from "./_output-errors.js";
import { hookCommand } from "./commands/hook.js";
import { EXIT_USAGE, terminalSafe, UsageError } from "./io.js";
import { usageError } from "./usage.js";

const exit = (code: number): never => process.exit(code);
const stderr = openOutput(
  2,
  () => process.stderr,
  onOutputError("stderr", () => undefined, exit),
);
const stdout = openOutput(
  1,
  () => process.stdout,
  onOutputError("stdout", (text) => stderr.write(text), exit),
);

const io = terminalSafe({
  stdout: (text) => stdout.write(text),
  stderr: (text) => stderr.write(text),
  // The hook reads its paths from the agent's input, never from where it runs.
  // An empty or relative $PWD (dash's from a deleted folder) would be read from process.cwd().
  cwd: isAbsolute(process.env.PWD ?? "") ? (process.env.PWD as string) : "/",
  env: process.env,
});

// `hook AGENT --untrusted`, the one flag the loader sends here (sysprompt.cts's chosenBundle).
const flags = process.argv[4] === "--untrusted" ? { untrusted: true } : {};

hookCommand(process.argv[3] ?? "", io, flags)
  .catch((error: unknown) => {
    // An agent name the hook does not know: usage, as `run` would say it.
    if (error instanceof UsageError) {
      io.stderr(usageError(error.message, { name: "sysprompt hook", usage: "[options] <agent>" }));
      return EXIT_USAGE;
    }
    throw error;
  })
  .then((code) => {
    let open = 2;
    const done = (error?: Error | null) => {
      if (!error && --open === 0) process.exit(code);
    };
    stdout.flush(done);
    stderr.flush(done);
  });
