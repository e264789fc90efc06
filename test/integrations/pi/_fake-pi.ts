import type {
  PiBeforeAgentStartEvent,
  PiBeforeAgentStartResult,
  PiCommandContext,
  PiExtensionAPI,
  PiNotifyLevel,
  PiSystemPromptOptions,
} from "../../../src/integrations/pi/index.js";
import { type PiStructuredPrompt, piPromptText } from "../../../src/integrations/pi/structure.js";

/**
 * A stand-in for pi's `ExtensionAPI` as pi 1.6.0 documents it
 * (`docs/extensions.md`): handlers by event, flags with defaults, commands.
 * `flags` are the values given on pi's command line.
 */
export function fakePi(flags: Record<string, boolean> = {}) {
  const handlers = new Map<string, ((event: unknown, ctx: unknown) => unknown)[]>();
  const flagDefs = new Map<string, { description?: string; type: "boolean"; default?: boolean }>();
  const commands = new Map<
    string,
    { description?: string; handler: (args: string, ctx: PiCommandContext) => unknown }
  >();
  const api: PiExtensionAPI = {
    on(event: string, handler: (event: never, ctx: never) => unknown) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler as never]);
      return () => {};
    },
    registerFlag(name, options) {
      flagDefs.set(name, options);
    },
    getFlag(name) {
      return flags[name] ?? flagDefs.get(name)?.default;
    },
    registerCommand(name, options) {
      commands.set(name, options);
    },
  };
  return {
    api,
    flagDefs,
    commands,
    /** Emits an event the way pi does: every handler in order, each result kept. */
    async emit(event: string, payload: unknown, ctx: FakeContext): Promise<unknown[]> {
      const results: unknown[] = [];
      for (const handler of handlers.get(event) ?? []) results.push(await handler(payload, ctx));
      return results;
    },
    /** How the last `before_agent_start` delivered the prompt. */
    delivery: "none" as "none" | "forced" | "structured",
    /**
     * `before_agent_start`, returning the prompt pi would send: the handler's
     * `systemPrompt`, or pi's rendering of the options the handler changed
     * (sysprompt's structure; the real pi checks that rendering in
     * integrations/pi-e2e), or undefined when nothing changed.
     */
    async beforeAgentStart(
      options: PiSystemPromptOptions,
      ctx: FakeContext,
    ): Promise<PiBeforeAgentStartResult | undefined> {
      const before = JSON.stringify(options);
      const event: PiBeforeAgentStartEvent = {
        type: "before_agent_start",
        systemPrompt: "pi's own prompt",
        systemPromptOptions: options,
      };
      const [result] = (await this.emit("before_agent_start", event, ctx)) as (
        | PiBeforeAgentStartResult
        | undefined
      )[];
      if (result?.systemPrompt !== undefined) {
        this.delivery = "forced";
        return result;
      }
      if (JSON.stringify(options) === before) {
        this.delivery = "none";
        return undefined;
      }
      this.delivery = "structured";
      const structure: PiStructuredPrompt = {
        customPrompt: options.customPrompt ?? "",
        appendSystemPrompt: options.appendSystemPrompt ?? "",
        contextFiles: options.contextFiles ?? [],
        skills: options.skills ?? [],
        sections: options.sections ?? {},
      };
      return { systemPrompt: piPromptText(structure, options) };
    },
  };
}

export type FakeContext = PiCommandContext & {
  notes: [PiNotifyLevel | undefined, string][];
  /** Each `ui.confirm` asked: title and message. */
  questions: [string, string][];
};

/**
 * A handler context: `hasUI` as in the TUI (true) or print mode (false), or a
 * `mode` with its `hasUI` as pi sets it; notifications and questions recorded,
 * each question answered `confirm` (default: no).
 */
export function fakeContext(
  options: {
    cwd: string;
    hasUI?: boolean;
    mode?: "tui" | "rpc" | "json" | "print";
    trusted?: boolean;
    confirm?: boolean;
    model?: string;
    systemPromptOptions?: PiSystemPromptOptions;
  } = { cwd: "/" },
): FakeContext {
  const notes: [PiNotifyLevel | undefined, string][] = [];
  const questions: [string, string][] = [];
  const mode = options.mode ?? (options.hasUI === false ? "print" : "tui");
  return {
    notes,
    questions,
    ui: {
      notify: (message, level) => notes.push([level, message]),
      confirm: async (title, message) => {
        questions.push([title, message]);
        return options.confirm === true;
      },
    },
    mode,
    hasUI: mode === "tui" || mode === "rpc",
    cwd: options.cwd,
    model: options.model ? { id: options.model, provider: "test" } : undefined,
    isProjectTrusted: () => options.trusted !== false,
    getSystemPromptOptions: () => options.systemPromptOptions ?? { cwd: options.cwd },
  };
}

/** `event.systemPromptOptions` as pi normalizes it: every collection present. */
export function piPromptOptions(
  cwd: string,
  extra: Partial<PiSystemPromptOptions> = {},
): PiSystemPromptOptions {
  return {
    customPrompt: undefined,
    selectedTools: ["read", "bash", "edit", "write"],
    hiddenTools: [],
    toolSnippets: {
      read: "Read file contents",
      bash: "Execute bash commands (ls, grep, find, etc.)",
      edit: "Make precise file edits with exact text replacement",
      write: "Create or overwrite files",
    },
    toolGuidelines: {},
    promptGuidelines: [],
    appendSystemPrompt: "",
    sections: {},
    cwd,
    contextFiles: [],
    skills: [],
    ...extra,
  };
}
