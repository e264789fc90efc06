/**
 * sysprompt as a pi extension (the package's `pi.extensions` entry). On every
 * `before_agent_start` it renders the prompt from pi's own resolved inputs
 * (see {@link piRenderOptions}) and hands it to pi as pi's structured prompt
 * (see {@link piStructure}: pi records the sections and patches only changed
 * ones), or as `{ systemPrompt }` where that structure cannot say it exactly;
 * nothing when another extension forced the whole prompt (`forceSystemPrompt`). It never
 * breaks pi: a render that throws, or renders nothing, leaves pi's own prompt;
 * a broken section file renders its fallback version. Each distinct problem is
 * said once, through pi's UI when there is one, on stderr otherwise. `/sysprompt`
 * shows the sections (layer, size, file) and the diagnostics; `/sysprompt
 * command`, the `sysprompt render` command that prints the same prompt outside pi.
 */
import { resolve } from "node:path";
import { expandHome, homeFolder } from "../../_paths.js";
import { escapeControls } from "../../_text.js";
import type { ConfigFile } from "../../config/index.js";
import type { TouchedFile } from "../../gather/context/index.js";
import type { SystemPromptOptions } from "../../options.js";
import { EMPTY_PROMPT } from "../../sections/empty-prompt.js";
import type { Diagnostic, RenderResult } from "../../types.js";
import { printable } from "./_printable.js";
import { readPiArguments } from "./argv.js";
import { renderCommandLine } from "./command-line.js";
import { piConfigFiles, piIgnoredConfig } from "./config-keys.js";
import { booleanFlag } from "./flag-value.js";
import { piAgentDir, piRenderOptions, TREE_FLAG } from "./map-options.js";
import {
  appendTouched,
  closingOf,
  ON_TOUCH_FLAG,
  touchedPaths,
  touchProblems,
} from "./on-touch.js";
import { type PromptRenderer, sessionRenderer } from "./renderer.js";
import { createReporter, formatPromptReport } from "./report.js";
import { applyPiStructure, piStructure } from "./structure.js";
import { findProjectTrust, PI_PROJECT_DIR, untrustedMessage } from "./trust.js";
import type { PiContext, PiExtensionAPI, PiSystemPromptOptions } from "./types.js";

export { PI_AGENT, type PiPromptInput, piRenderOptions, TREE_FLAG } from "./map-options.js";
export { ON_TOUCH_FLAG } from "./on-touch.js";
export type { PromptRenderer } from "./renderer.js";
export { formatPromptReport } from "./report.js";
export type * from "./types.js";

/** What the extension takes from the process; tests pass their own. */
export interface ExtensionHost {
  /** pi's environment (`PI_CODING_AGENT_DIR`, and the environment section's `TERM` and the like). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where text for the user goes when pi has no UI (print and JSON modes). */
  writeStderr(text: string): void;
  /** Makes the renderer of one pi session. */
  newRenderer(): PromptRenderer;
  /** pi's command-line arguments (`process.argv.slice(2)`): `--approve` and flag values pi does not pass on. */
  argv: readonly string[];
  /** The user's home (pi's: `$HOME`, else the account's). */
  home: string;
}

function processHost(): ExtensionHost {
  return {
    env: process.env,
    writeStderr: (text) => process.stderr.write(text),
    newRenderer: sessionRenderer,
    argv: process.argv.slice(2),
    home: homeFolder(),
  };
}

/** One render for pi: the result (none when it threw) and the problems to say. */
interface PiRender {
  result: RenderResult | undefined;
  /** The mapping's diagnostics, then the render's error-level ones, or the exception. */
  problems: Diagnostic[];
  /** The mapping's diagnostics, for `/sysprompt`. */
  mapping: Diagnostic[];
  /** The render options (none when the mapping threw), for `/sysprompt command`. */
  options?: SystemPromptOptions;
}

/** The extension, with the process pieces it uses replaceable (tests). */
export function createSyspromptExtension(
  host: Partial<ExtensionHost> = {},
): (pi: PiExtensionAPI) => void {
  const { env, writeStderr, newRenderer, argv, home } = { ...processHost(), ...host };
  const args = readPiArguments(argv);
  const agentDir = resolve(expandHome(piAgentDir(env), home));

  return function syspromptExtension(pi: PiExtensionAPI): void {
    const report = createReporter(writeStderr);
    /** The user's answer to the trust question, by folder: asked once per pi process. */
    const answers = new Map<string, Promise<boolean>>();
    /** The config files by folder and trust, read once per session: only for the warning below. */
    const configs = new Map<string, Promise<ConfigFile[]>>();
    const treeFlag = () => booleanFlag(TREE_FLAG, args.flags.get(TREE_FLAG), pi.getFlag(TREE_FLAG));
    const onTouchFlag = () =>
      booleanFlag(ON_TOUCH_FLAG, args.flags.get(ON_TOUCH_FLAG), pi.getFlag(ON_TOUCH_FLAG));
    let renderer: PromptRenderer | undefined;
    const closeRenderer = () => {
      renderer?.close();
      renderer = undefined;
    };

    pi.registerFlag(TREE_FLAG, {
      type: "boolean",
      default: false,
      description:
        "sysprompt: add a compact listing of the working directory (workspace_tree) to the prompt",
    });
    pi.registerFlag(ON_TOUCH_FLAG, {
      type: "boolean",
      default: true,
      description:
        "sysprompt: append nested AGENTS.md files and matching glob rules to the result of the tool call that first touches their folder (--sysprompt-on-touch false: off)",
    });
    pi.on("session_start", (_event, ctx) => {
      closeRenderer();
      renderer = newRenderer();
      configs.clear();
      // Said now: when the flag swallowed the message, no prompt is ever sent.
      report(ctx, [...treeFlag().diagnostics, ...onTouchFlag().diagnostics]);
    });
    pi.on("tool_result", async (event, ctx) => {
      if (event.isError || !onTouchFlag().on || renderer?.contextFor === undefined)
        return undefined;
      try {
        const paths = await touchedPaths(event.toolName, event.input, ctx.cwd, home);
        if (paths.length === 0) return undefined;
        // The closer the result needs, asked by contextFor only when files come and before it keeps
        // them as given: a result nothing can follow (`<plaintext>`) keeps them for a later call (rev82d F2).
        const closing = closingOf(event.content ?? []);
        let held: readonly TouchedFile[] = [];
        const appendable = (files: readonly TouchedFile[]) => {
          if (closing() !== undefined) return true;
          held = files;
          return false;
        };
        // pi's empty list of context files means "none at cwd", unless the user turned them off.
        const contextFiles = !args.noContextFiles;
        const touched = await renderer.contextFor(paths, { contextFiles, appendable });
        // A file whose text is written `&lt;` where it could not be closed is said too (fx77c),
        // and so are the files held back (appendTouched's warning names them).
        const told: Diagnostic[] = [];
        const files = held.length > 0 ? held : touched.files;
        const patch = appendTouched(event, files, ctx.cwd, (d) => told.push(d), closing);
        report(ctx, touchProblems([...touched.diagnostics, ...told]));
        return patch;
      } catch (error) {
        // Never breaks the tool call: its result stays as the tool made it.
        report(ctx, [
          {
            level: "warning",
            code: "pi-touch-failed",
            message: `nested instructions not added to a tool result: ${error instanceof Error ? error.message : String(error)}`,
          },
        ]);
        return undefined;
      }
    });
    pi.on("session_shutdown", closeRenderer);
    // The tool results that carried nested instructions may be gone into a summary: give them again.
    pi.on("session_compact", () => renderer?.forgetContext?.());

    pi.on("before_agent_start", async (event, ctx) => {
      // Another extension forced the exact prompt of this run: it is theirs to keep.
      if (event.systemPromptOptions.forceSystemPrompt !== undefined) return undefined;
      const { result, problems: found } = await render(event.systemPromptOptions, ctx);
      let problems = found;
      if (result !== undefined && result.text.trim() === "") {
        // Said once, the pi way: what happens next is that pi's prompt is used.
        problems = problems.filter((p) => p.code !== EMPTY_PROMPT);
        problems.push({
          level: "warning",
          code: "pi-empty-prompt",
          message:
            "the rendered prompt is empty (every section is off or blank); pi's own prompt is used",
        });
      }
      report(ctx, problems);
      // Nothing returned: pi keeps its own prompt for this run.
      if (result === undefined || result.text.trim() === "") return undefined;
      // pi's structure, where it renders to exactly this text: pi then records the
      // sections and sends only the changed ones. Else the whole text, as pi's docs allow.
      const structure = piStructure(result, event.systemPromptOptions);
      if (structure === undefined) return { systemPrompt: result.text };
      applyPiStructure(event.systemPromptOptions, structure);
      return undefined;
    });

    pi.registerCommand("sysprompt", {
      description:
        "Show sysprompt's prompt sections (layer, size, file) and diagnostics; `refresh`: take fresh session sections (tree, environment, date) on the next prompt; `command`: the sysprompt render command that prints this prompt outside pi",
      handler: async (rawArgs, ctx) => {
        const word = typeof rawArgs === "string" ? rawArgs.trim() : "";
        const say = (said: string, level: "info" | "warning") => {
          // Its paths and messages may be a repository's (a folder named with ESC ]52): shown, never sent.
          const text = escapeControls(said);
          if (ctx.hasUI) ctx.ui.notify(text, level);
          else writeStderr(`${text}\n`);
        };
        if (word === "refresh") {
          // A renderer made now has nothing kept: nothing to refresh.
          renderer?.refresh?.();
          say(
            "sysprompt: the next prompt takes the session sections (workspace tree, AGENTS.md list, environment, date) afresh",
            "info",
          );
          return;
        }
        if (word === "command") {
          const { options, problems } = await render(ctx.getSystemPromptOptions(), ctx);
          if (options === undefined) {
            say(`sysprompt: no render, so no command\n${formatProblems(problems)}`, "warning");
            return;
          }
          const { command, notCarried } = renderCommandLine(options, env);
          const notes = notCarried.map((n) => `\nnot carried: ${n}`).join("");
          say(`${command}${notes}`, "info");
          return;
        }
        if (word !== "") {
          say(
            `sysprompt: unknown argument ${JSON.stringify(printable(word.length > 40 ? `${word.slice(0, 40)}…` : word))}; /sysprompt shows the prompt's sections, /sysprompt refresh takes fresh session sections on the next prompt, /sysprompt command prints the sysprompt render command of this prompt`,
            "warning",
          );
          return;
        }
        const { result, problems, mapping } = await render(ctx.getSystemPromptOptions(), ctx);
        const text = result
          ? formatPromptReport({ ...result, diagnostics: [...mapping, ...result.diagnostics] })
          : `sysprompt: no prompt rendered; pi's own prompt is in use\n${formatProblems(problems)}`;
        // Without a UI, stderr: JSON mode's stdout is its event stream, and print mode
        // sends an extension's stdout to stderr anyway.
        say(text.trimEnd(), "info");
      },
    });

    /** Whether the project's `.pi/` files may shape the prompt, and the message when they may not. */
    async function projectTrust(
      cwd: string,
      ctx: PiContext,
    ): Promise<{ trusted: boolean; diagnostics: Diagnostic[] }> {
      const trust = await findProjectTrust({
        cwd,
        piTrusted: ctx.isProjectTrusted(),
        trustOverride: args.trustOverride,
        agentDir,
        home,
      });
      const diagnostics = [...trust.diagnostics];
      let trusted = trust.trusted;
      let declined = false;
      if (trusted === undefined) {
        if (ctx.mode === "tui" && ctx.hasUI) {
          trusted = await ask(cwd, trust.files, ctx);
          declined = !trusted;
        } else {
          trusted = false;
        }
      }
      if (!trusted) {
        const message = untrustedMessage(trust, cwd, agentDir, declined);
        if (message) diagnostics.push(message);
      }
      return { trusted, diagnostics };
    }

    function ask(cwd: string, files: readonly string[], ctx: PiContext): Promise<boolean> {
      const key = resolve(cwd);
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = ctx.ui
          .confirm(
            "sysprompt: trust this folder's prompt files?",
            `${printable(resolve(cwd, PI_PROJECT_DIR))} holds ${files.join(", ")}, which change what the model is told. pi has no trust decision for this folder.\nYes: use them while this pi runs. No: leave them out. /trust saves a decision for later runs.`,
          )
          .then(
            (yes) => yes === true,
            // A dialog that fails is no consent.
            () => false,
          );
        answers.set(key, answer);
      }
      return answer;
    }

    async function render(prompt: PiSystemPromptOptions, ctx: PiContext): Promise<PiRender> {
      let mapping: Diagnostic[] = [];
      try {
        const tree = treeFlag();
        const trust = await projectTrust(prompt.cwd, ctx);
        renderer ??= newRenderer();
        const mapped = piRenderOptions({
          prompt,
          model: ctx.model?.id,
          projectTrusted: trust.trusted,
          workspaceTree: tree.on,
          // What the tool_result handler does: the prompt says so only when it will.
          contextOnTouch:
            onTouchFlag().on && !args.noContextFiles && renderer.contextFor !== undefined,
          env,
        });
        // Keys of sysprompt.yaml that pi's own inputs beat: said once (the reporter keeps it to once).
        const configKey = JSON.stringify([resolve(prompt.cwd), trust.trusted]);
        let files = configs.get(configKey);
        if (files === undefined) {
          files = piConfigFiles(prompt.cwd, agentDir, trust.trusted, home);
          configs.set(configKey, files);
          // A read that failed is tried again on the next turn.
          files.catch(() => configs.delete(configKey));
        }
        const ignored = piIgnoredConfig(mapped.options, await files);
        mapping = [...tree.diagnostics, ...trust.diagnostics, ...mapped.diagnostics, ...ignored];
        const result = await renderer.render(mapped.options);
        const errors = result.diagnostics.filter((d) => d.level === "error");
        return { result, problems: [...mapping, ...errors], mapping, options: mapped.options };
      } catch (error) {
        const problem: Diagnostic = {
          level: "error",
          code: "pi-render-failed",
          message: `rendering failed, so pi's own prompt is used: ${error instanceof Error ? error.message : String(error)}`,
        };
        return { result: undefined, problems: [...mapping, problem], mapping };
      }
    }
  };
}

function formatProblems(problems: readonly Diagnostic[]): string {
  return problems.map((p) => `${p.level} [${p.code}] ${p.message}\n`).join("");
}

/** The extension pi loads. */
export default createSyspromptExtension();
