/**
 * sysprompt as a pi extension (the package's `pi.extensions` entry). On every
 * `before_agent_start` it renders the prompt from pi's own resolved inputs
 * (see {@link piRenderOptions}) and returns it as `{ systemPrompt }`, unless
 * another extension forced the whole prompt (`forceSystemPrompt`). It never
 * breaks pi: a render that throws, or renders nothing, leaves pi's own prompt;
 * a broken section file renders its fallback version. Each distinct problem is
 * said once, through pi's UI when there is one, on stderr otherwise. `/sysprompt`
 * shows the sections (layer, size, file) and the diagnostics.
 */
import { EMPTY_PROMPT } from "../../sections/empty-prompt.js";
import type { Diagnostic, RenderResult } from "../../types.js";
import { piRenderOptions, TREE_FLAG } from "./map-options.js";
import { type PromptRenderer, sessionRenderer } from "./renderer.js";
import { createReporter, formatPromptReport } from "./report.js";
import type { PiContext, PiExtensionAPI, PiSystemPromptOptions } from "./types.js";

export { PI_AGENT_NAME, type PiPromptInput, piRenderOptions, TREE_FLAG } from "./map-options.js";
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
}

function processHost(): ExtensionHost {
  return {
    env: process.env,
    writeStderr: (text) => process.stderr.write(text),
    newRenderer: sessionRenderer,
  };
}

/** One render for pi: the result (none when it threw) and the problems to say. */
interface PiRender {
  result: RenderResult | undefined;
  /** The mapping's diagnostics, then the render's error-level ones, or the exception. */
  problems: Diagnostic[];
  /** The mapping's diagnostics, for `/sysprompt`. */
  mapping: Diagnostic[];
}

/** The extension, with the process pieces it uses replaceable (tests). */
export function createSyspromptExtension(
  host: Partial<ExtensionHost> = {},
): (pi: PiExtensionAPI) => void {
  const { env, writeStderr, newRenderer } = { ...processHost(), ...host };

  return function syspromptExtension(pi: PiExtensionAPI): void {
    const report = createReporter(writeStderr);
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
    pi.on("session_start", () => {
      closeRenderer();
      renderer = newRenderer();
    });
    pi.on("session_shutdown", closeRenderer);

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
      return { systemPrompt: result.text };
    });

    pi.registerCommand("sysprompt", {
      description: "Show sysprompt's prompt sections (layer, size, file) and diagnostics",
      handler: async (_args, ctx) => {
        const { result, problems, mapping } = await render(ctx.getSystemPromptOptions(), ctx);
        const text = result
          ? formatPromptReport({ ...result, diagnostics: [...mapping, ...result.diagnostics] })
          : `sysprompt: no prompt rendered; pi's own prompt is in use\n${problems
              .map((p) => `${p.level} [${p.code}] ${p.message}\n`)
              .join("")}`;
        // Without a UI, stderr: JSON mode's stdout is its event stream, and print mode
        // sends an extension's stdout to stderr anyway.
        if (ctx.hasUI) ctx.ui.notify(text.trimEnd(), "info");
        else writeStderr(text);
      },
    });

    async function render(prompt: PiSystemPromptOptions, ctx: PiContext): Promise<PiRender> {
      let mapping: Diagnostic[] = [];
      try {
        const mapped = piRenderOptions({
          prompt,
          model: ctx.model?.id,
          projectTrusted: ctx.isProjectTrusted(),
          workspaceTree: pi.getFlag(TREE_FLAG) === true,
          env,
        });
        mapping = mapped.diagnostics;
        renderer ??= newRenderer();
        const result = await renderer.render(mapped.options);
        const errors = result.diagnostics.filter((d) => d.level === "error");
        return { result, problems: [...mapping, ...errors], mapping };
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

/** The extension pi loads. */
export default createSyspromptExtension();
