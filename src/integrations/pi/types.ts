/**
 * The parts of pi's extension API (pi 1.6.0, `docs/extensions.md` and
 * `dist/core/extensions/types.d.ts`) that this extension uses, written down
 * structurally so sysprompt needs no dependency on pi. pi passes objects with
 * more fields; only these are read.
 */

/**
 * pi's prompt inputs (`BuildSystemPromptOptions`): what `before_agent_start`
 * gives as `event.systemPromptOptions` (every collection present) and what a
 * command's `ctx.getSystemPromptOptions()` returns (collections optional).
 */
export interface PiSystemPromptOptions {
  /** The prompt prefix from `--system-prompt` or SYSTEM.md, already read; replaces pi's default base. */
  customPrompt?: string | undefined;
  /** The exact whole prompt an earlier extension forced for this run. */
  forceSystemPrompt?: string | undefined;
  /** Active tools, in order. pi's default: read, bash, edit, write. */
  selectedTools?: string[];
  /** Selected tools whose declarations requests leave out: left out of the tool list and rules. */
  hiddenTools?: string[];
  /** One-line descriptions by tool name (tools without one are not listed by pi). */
  toolSnippets?: Record<string, string>;
  /** Rule bullets by tool name. */
  toolGuidelines?: Record<string, string[]>;
  /** Further rule bullets. */
  promptGuidelines?: string[];
  /** `--append-system-prompt` values, else APPEND_SYSTEM.md, already read and joined. */
  appendSystemPrompt?: string;
  /** Extra sections by tag name (extensions add them); an empty text adds nothing. */
  sections?: Record<string, string>;
  cwd: string;
  /** The context files pi loaded; empty when the user turned them off (`--no-context-files`). */
  contextFiles?: { path: string; content: string }[];
  /** The skills pi loaded, model-hidden ones included. */
  skills?: {
    name: string;
    description: string;
    filePath: string;
    disableModelInvocation: boolean;
  }[];
}

/** `before_agent_start`'s event. */
export interface PiBeforeAgentStartEvent {
  type: "before_agent_start";
  /** pi's prompt as built so far this turn (earlier handlers included). */
  systemPrompt: string;
  systemPromptOptions: PiSystemPromptOptions;
}

/** What a `before_agent_start` handler may return: `systemPrompt` replaces the whole prompt for the run. */
export interface PiBeforeAgentStartResult {
  systemPrompt?: string;
}

export type PiNotifyLevel = "info" | "warning" | "error";

/** `ExtensionContext`: what every handler gets. */
export interface PiContext {
  ui: {
    notify(message: string, type?: PiNotifyLevel): void;
    /** A yes/no dialog (TUI and RPC modes); false when dismissed. */
    confirm(title: string, message: string): Promise<boolean>;
  };
  /** `"tui"`, `"rpc"`, `"json"` or `"print"`. */
  mode: string;
  /** True in the TUI and RPC modes; false in print (`-p`) and JSON modes. */
  hasUI: boolean;
  cwd: string;
  /** The active model, if any. */
  model: { id: string; provider?: string } | undefined;
  /**
   * pi's project-trust decision for this context (saved, `--approve` / `--no-approve`, or an
   * extension's). True without any decision when `.pi/` holds none of pi's own files.
   */
  isProjectTrusted(): boolean;
}

/** `ExtensionCommandContext`: a command handler's context. */
export interface PiCommandContext extends PiContext {
  getSystemPromptOptions(): PiSystemPromptOptions;
}

/** A part of a tool result's content (text, or an image read). */
export type PiContentPart =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string; [key: string]: unknown };

/** `tool_result`'s event: a tool call that ran, with its result so far (earlier handlers' changes included). */
export interface PiToolResultEvent {
  toolName: string;
  toolCallId: string;
  /** The call's arguments (`{ path }` for read, edit, write, grep, find, ls; `{ command }` for bash). */
  input: unknown;
  content: PiContentPart[];
  structuredContent?: unknown;
  isError: boolean;
}

/** What a `tool_result` handler may return: fields to replace; omitted ones are kept. */
export interface PiToolResultPatch {
  content?: PiContentPart[];
  structuredContent?: unknown;
}

/** `ExtensionAPI`, the argument of an extension's default export. */
export interface PiExtensionAPI {
  on(
    event: "before_agent_start",
    handler: (
      event: PiBeforeAgentStartEvent,
      ctx: PiContext,
    ) => Promise<PiBeforeAgentStartResult | undefined> | PiBeforeAgentStartResult | undefined,
  ): unknown;
  on(
    event: "tool_result",
    handler: (
      event: PiToolResultEvent,
      ctx: PiContext,
    ) => Promise<PiToolResultPatch | undefined> | PiToolResultPatch | undefined,
  ): unknown;
  on(event: "session_start", handler: (event: unknown, ctx: PiContext) => unknown): unknown;
  on(event: "session_shutdown", handler: (event: unknown, ctx: PiContext) => unknown): unknown;
  /** After a compaction replaced the older messages with a summary. */
  on(event: "session_compact", handler: (event: unknown, ctx: PiContext) => unknown): unknown;
  registerFlag(
    name: string,
    options: { description?: string; type: "boolean"; default?: boolean },
  ): void;
  getFlag(name: string): boolean | string | undefined;
  registerCommand(
    name: string,
    options: {
      description?: string;
      handler: (args: string, ctx: PiCommandContext) => Promise<void> | void;
    },
  ): void;
}
