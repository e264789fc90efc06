/**
 * What another agent's after-tool hook sends on stdin, read into one shape,
 * and which paths each of its tools names. Pure: no file system.
 *
 * The three agents send the same snake_case fields (`session_id`, `cwd`,
 * `hook_event_name`, `tool_name`, `tool_input`, `tool_response`):
 * - Claude Code `PostToolUse`: https://code.claude.com/docs/en/hooks
 * - Codex `PostToolUse`: codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json
 *   in github.com/openai/codex (shell tools as `Bash` with `{ command }`, patches as `apply_patch`)
 * - Gemini CLI `AfterTool`: docs/hooks/reference.md in github.com/google-gemini/gemini-cli
 */

import { type JsonShapeLimits, jsonShapePast } from "../_json-shape.js";
import { PATH_MAX } from "../_paths.js";

/** The agents `sysprompt hook` answers, each with the event it is run from. */
export const HOOK_EVENTS = {
  "claude-code": "PostToolUse",
  codex: "PostToolUse",
  "gemini-cli": "AfterTool",
} as const;

export type HookAgent = keyof typeof HOOK_EVENTS;

/** The agents whose tool arguments are known here: the hook's, and opencode's plugin. */
export type ToolAgent = HookAgent | "opencode";

export function isHookAgent(name: string): name is HookAgent {
  return Object.hasOwn(HOOK_EVENTS, name);
}

/** One finished tool call, as the hook was told of it. */
export interface HookCall {
  sessionId: string;
  /** The agent's working folder (absolute). */
  cwd: string;
  tool: string;
  input: Readonly<Record<string, unknown>>;
  /**
   * The text the agent sends the model before the hook's own in the same
   * string, when it appends the hook's text to the tool's result (Gemini
   * CLI, see {@link geminiResultText}); undefined for an agent that sends
   * the hook's text apart.
   */
  resultText?: string;
}

/** Longest session id kept: ids are UUIDs; a longer one is not a session id. */
const MAX_SESSION_ID = 256;

/** Deepest nesting of arrays and objects the hook parses: an agent's input is a few levels deep. */
export const MAX_JSON_DEPTH = 256;

/**
 * Most arrays and objects the hook parses. JSON.parse's time and memory go
 * with the values it makes, not the bytes: 30 MB of `[[],[],…]` (ten million
 * arrays, no nesting) took 17 s and 700 MB, of `{}` 22 s and 1.3 GB, all
 * before the hook's own timer can fire. An agent's input holds a few dozen.
 */
export const MAX_JSON_CONTAINERS = 100_000;

/** Most values the hook parses (counted by their commas): 15 million numbers took 3.6 s. */
export const MAX_JSON_VALUES = 2_000_000;

/**
 * Most object keys the hook parses (counted by their colons). Each key name
 * new in its place makes JSON.parse build a hidden class: 99,000 objects of
 * 20 new names (1.98 million keys, under both caps above) took 8 s of CPU
 * and 750 MB. An agent's input holds a few dozen.
 */
export const MAX_JSON_KEYS = 100_000;

/** The hook input's limits, checked before its parse ({@link jsonShapeProblem}). */
export const HOOK_JSON_LIMITS: JsonShapeLimits = {
  depth: MAX_JSON_DEPTH,
  containers: MAX_JSON_CONTAINERS,
  values: MAX_JSON_VALUES,
  keys: MAX_JSON_KEYS,
};

/**
 * Why the hook's input is not parsed, or undefined: it nests arrays and
 * objects deeper than `maxDepth`, or holds more than {@link MAX_JSON_CONTAINERS}
 * of them, {@link MAX_JSON_VALUES} values or {@link MAX_JSON_KEYS} object
 * keys ({@link jsonShapePast}, the one check Gemini CLI's settings files get too).
 * JSON.parse of megabytes of `[[[…` takes seconds (9 s at load here for 4 MB).
 */
export function jsonShapeProblem(text: string, maxDepth: number): string | undefined {
  const past = jsonShapePast(text, { ...HOOK_JSON_LIMITS, depth: maxDepth });
  return past === undefined ? undefined : `the hook input ${past.problem}`;
}

/**
 * The call in a hook's stdin, or why there is none: not JSON, not an
 * object, another event than `agent`'s after-tool one, or a field missing or
 * of the wrong type. Fields the hook does not use are not looked at.
 */
export function parseHookInput(
  agent: HookAgent,
  text: string,
): { call: HookCall } | { problem: string } {
  const shape = jsonShapeProblem(text, MAX_JSON_DEPTH);
  if (shape !== undefined) return { problem: shape };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "the hook input is not JSON" };
  }
  if (!isRecord(value)) return { problem: "the hook input is not a JSON object" };
  const event = value.hook_event_name;
  if (event !== undefined && event !== HOOK_EVENTS[agent]) {
    return {
      problem: `the hook input is for ${oneWord(event)}, not ${HOOK_EVENTS[agent]}: run \`sysprompt hook ${agent}\` from ${HOOK_EVENTS[agent]} only`,
    };
  }
  const sessionId = value.session_id;
  if (typeof sessionId !== "string" || sessionId === "" || sessionId.length > MAX_SESSION_ID) {
    return { problem: "the hook input has no session_id" };
  }
  const cwd = value.cwd;
  if (typeof cwd !== "string" || !cwd.startsWith("/") || cwd.includes("\0")) {
    return { problem: "the hook input has no absolute cwd" };
  }
  if (cwd.length > PATH_MAX) {
    return {
      problem: `the hook input's cwd is ${cwd.length} characters long, and no folder's path is longer than ${PATH_MAX}`,
    };
  }
  const tool = value.tool_name;
  if (typeof tool !== "string" || tool === "")
    return { problem: "the hook input has no tool_name" };
  const input = value.tool_input;
  const call: HookCall = { sessionId, cwd, tool, input: isRecord(input) ? input : {} };
  if (agent === "gemini-cli") call.resultText = geminiResultText(value.tool_response);
  return { call };
}

/**
 * The text of a Gemini CLI tool result that its model reads before a hook's
 * additional context: Gemini CLI appends `\n\n<hook_context>…` to the
 * result's `llmContent` when it is a string, and adds it as a part of its
 * own when it is a part or a list of them, whose text parts are then joined
 * with line breaks (packages/core/src/core/coreToolHookTriggers.ts and
 * convertToFunctionResponse in github.com/google-gemini/gemini-cli). The
 * result is the repository's text (a file `read_file` printed).
 */
export function geminiResultText(response: unknown): string {
  const content = isRecord(response) ? response.llmContent : undefined;
  if (typeof content === "string") return content;
  if (content === undefined || content === null || content === false) return "";
  const parts = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === "string") texts.push(part);
    else if (isRecord(part) && typeof part.text === "string") texts.push(part.text);
  }
  // The hook's part is joined after the others with one more line break.
  return texts.map((t) => `${t}\n`).join("");
}

/** What one tool's arguments say it touched, before anything is resolved. */
export interface NamedPaths {
  /** Paths as written (absolute, `~/…`, or relative to the working folder). */
  files: string[];
  /** A shell command and the folder it ran in (as written), when the tool runs one. */
  shell?: { command: string; workdir?: string };
  /** A patch's text, when the tool applies one. */
  patch?: string;
  /** Paths of a list argument past {@link MAX_LISTED}, not looked at (said: rev79h F2). */
  listedLeft?: number;
  /**
   * How many path arguments were left out for being longer than PATH_MAX:
   * no file has such a path, and resolving 30 MB of one took seconds (rev79h F3).
   */
  tooLong?: number;
}

/** Where a tool's arguments hold what it touches. */
interface ToolShape {
  /** Keys holding one path (the first that is a string counts). */
  path?: readonly string[];
  /** Keys holding a list of paths (globs in it are left out). */
  list?: readonly string[];
  /** The key holding a shell command (a string, or Codex's argv list). */
  command?: string;
  /** Keys holding the command's working folder. */
  workdir?: readonly string[];
  /** Keys holding a patch's text. */
  patch?: readonly string[];
}

const FILE: ToolShape = { path: ["file_path"] };
const SEARCH: ToolShape = { path: ["path"] };
const GEMINI_FILE: ToolShape = { path: ["file_path", "absolute_path", "path"] };
const GEMINI_DIR: ToolShape = { path: ["dir_path", "path"] };
const OPENCODE_FILE: ToolShape = { path: ["filePath"] };

/**
 * Each agent's tools that touch files, by the name its hook (or plugin)
 * receives, with their argument names from the agent's own tool schemas.
 * A tool not listed touches nothing sysprompt can tell (web, todo, MCP).
 */
export const TOOL_SHAPES: Readonly<Record<ToolAgent, Readonly<Record<string, ToolShape>>>> = {
  "claude-code": {
    Read: FILE,
    Write: FILE,
    Edit: FILE,
    MultiEdit: FILE,
    NotebookEdit: { path: ["notebook_path"] },
    Glob: SEARCH,
    Grep: SEARCH,
    LS: SEARCH,
    Bash: { command: "command" },
  },
  codex: {
    Bash: { command: "command", workdir: ["workdir"] },
    apply_patch: { patch: ["command", "input", "patch"] },
    view_image: SEARCH,
  },
  "gemini-cli": {
    read_file: GEMINI_FILE,
    write_file: GEMINI_FILE,
    replace: GEMINI_FILE,
    list_directory: GEMINI_DIR,
    glob: GEMINI_DIR,
    grep_search: GEMINI_DIR,
    search_file_content: GEMINI_DIR,
    read_many_files: { list: ["include", "paths"] },
    run_shell_command: { command: "command", workdir: ["dir_path", "directory"] },
  },
  opencode: {
    read: OPENCODE_FILE,
    write: OPENCODE_FILE,
    edit: OPENCODE_FILE,
    multiedit: OPENCODE_FILE,
    list: SEARCH,
    glob: SEARCH,
    grep: SEARCH,
    bash: { command: "command", workdir: ["workdir"] },
    patch: { patch: ["patchText"] },
    apply_patch: { patch: ["patchText"] },
  },
};

/** Most paths taken from one list argument (`read_many_files`). */
export const MAX_LISTED = 64;
/** A character that makes a listed path a glob, which names no one file. */
const GLOB = /[*?[\]{}]/;

/** The paths `tool`'s arguments name for `agent` (see {@link TOOL_SHAPES}). */
export function namedPaths(agent: ToolAgent, tool: string, input: unknown): NamedPaths {
  const shape = Object.hasOwn(TOOL_SHAPES[agent], tool) ? TOOL_SHAPES[agent][tool] : undefined;
  const args = isRecord(input) ? input : {};
  const out: NamedPaths = { files: [] };
  if (shape === undefined) return out;
  // Every path argument is measured here, before anything resolves or splits it (rev79h F3).
  let tooLong = 0;
  const fits = (p: string): boolean => {
    if (p.length <= PATH_MAX) return true;
    tooLong++;
    return false;
  };
  const one = firstString(args, shape.path ?? []);
  if (one !== undefined && fits(one)) out.files.push(one);
  for (const key of shape.list ?? []) {
    const list = args[key];
    if (!Array.isArray(list)) continue;
    let left = 0;
    for (const [i, p] of list.entries()) {
      if (typeof p !== "string" || p.trim() === "" || GLOB.test(p)) continue;
      if (i >= MAX_LISTED) left++;
      else if (fits(p)) out.files.push(p);
    }
    if (left > 0) out.listedLeft = (out.listedLeft ?? 0) + left;
  }
  if (shape.command !== undefined) {
    const command = commandText(args[shape.command]);
    const written = firstString(args, shape.workdir ?? []);
    // A workdir no folder can have: the command's relative paths are not looked for.
    const workdir = written === undefined || fits(written) ? written : undefined;
    if (command !== undefined && (written === undefined || workdir !== undefined)) {
      out.shell = workdir === undefined ? { command } : { command, workdir };
    }
  }
  if (tooLong > 0) out.tooLong = tooLong;
  const patch = firstString(args, shape.patch ?? []);
  if (patch !== undefined) out.patch = patch;
  return out;
}

/** Shells whose `-c SCRIPT` (or `-lc`) argument is the command Codex ran. */
const SHELLS = new Set(["bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh", "/usr/bin/bash"]);

/** A command as text: a string, or an argv list (`["bash", "-lc", "cat x"]` is its script). */
function commandText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (!Array.isArray(value) || !value.every((w) => typeof w === "string")) return undefined;
  const words = value as string[];
  const [shell, flag, script] = words;
  if (words.length === 3 && shell && SHELLS.has(shell) && /^-l?c$/.test(flag ?? "")) return script;
  return words.length > 0 ? words.join(" ") : undefined;
}

function firstString(args: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const v = args[key];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function oneWord(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v.slice(0, 40)) : "another event";
}
