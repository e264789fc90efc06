/**
 * `sysprompt hook AGENT`: from another agent's after-tool hook, the
 * instructions the call's paths bring in, once per agent session, as that
 * agent's hook reply. Whatever goes wrong, the reply is one the agent
 * accepts and that changes nothing, with at most one line to say why: the
 * hook never blocks or fails the agent's tool call.
 */

import { PATH_MAX } from "../_paths.js";
import type { TouchedFile } from "../gather/context/index.js";
import { envAgentDirPath } from "../locate/layers.js";
import type { Diagnostic } from "../types.js";
import type { HookWhere } from "./context.js";
import { pathCuts } from "./cuts.js";
import type { HookProgress } from "./deadline.js";
import { nothingNew } from "./fast.js";
import {
  type HookAgent,
  type HookCall,
  type NamedPaths,
  namedPaths,
  parseHookInput,
  type ToolAgent,
} from "./input.js";
import { noteOf } from "./note.js";
import { touchedPaths } from "./paths.js";
import { hookReply, replyStart } from "./reply.js";
import { usableSnapshot } from "./snapshot.js";
import { readSession, sessionLocation } from "./state.js";

export { HOOK_DEADLINE_MS } from "./deadline.js";

export interface HookOutcome {
  /** What goes to stdout: the agent's hook reply. */
  reply: string;
  /** One line for stderr (no line break), when something is worth saying. */
  note?: string;
}

/**
 * Runs the hook on its stdin's text. Never throws for what the agent or a
 * repository sent. `late()` true: the caller has answered already (its
 * deadline passed), so nothing is recorded as given.
 */
export async function runHook(
  agent: HookAgent,
  stdin: string,
  where: HookWhere,
  late: () => boolean = () => false,
  progress?: HookProgress,
): Promise<HookOutcome> {
  const parsed = parseHookInput(agent, stdin);
  if ("problem" in parsed) return { reply: hookReply(agent, undefined), note: parsed.problem };
  // Read before anything is given: a result read past the deadline leaves the session as it was.
  const { resultText, tool } = parsed.call;
  // A call that names no path brings nothing: its result is never read (rev66e F1).
  if (namesNothing(namedPaths(agent, tool, parsed.call.input)))
    return { reply: hookReply(agent, undefined) };
  const start = replyStart(agent, resultText, tool);
  if ("nothing" in start) {
    return {
      reply: hookReply(agent, undefined),
      note: `nothing added: the tool's result ${start.nothing}; the files come with a later call`,
    };
  }
  if (progress !== undefined) progress.closer = start.closer;
  const limits = progress === undefined ? start : { ...start, progress };
  const found = await callContext(agent, parsed.call, where, late, limits);
  const reply = hookReply(agent, found.text, start.closer);
  return found.note === undefined ? { reply } : { reply, note: found.note };
}

/**
 * The text a finished tool call of `agent` adds to its result: the
 * `<instructions>` elements of what its paths bring in and the session was
 * not given yet (the session's state is updated), or none; with at most one
 * line worth saying. Never throws: a failure is a note and no text. Once
 * `late()` is true, the session's state is left as it was. A text longer
 * than `room` as Gemini CLI counts it (`GEMINI_CHARS`: what it keeps of a
 * shell result at 40,000 characters, `replyStart`; less when Gemini CLI's
 * settings cut lower, `geminiCut`; for another tool, `distilledRoom`, when
 * they turn its context management on) is not given: nothing is added or kept as given.
 * Nor is a text `appendable` refuses (asked only when files come, before any
 * is kept: opencode's plugin, whose tool output nothing may follow, review
 * rev82d F2); the note says so, and the files come with a later call.
 */
export async function callContext(
  agent: ToolAgent,
  call: HookCall,
  where: HookWhere,
  late: () => boolean = () => false,
  limits: CallLimits = {},
): Promise<{ text?: string; note?: string }> {
  const { room = Number.POSITIVE_INFINITY, distilledRoom, appendable, progress } = limits;
  const named = namedPaths(agent, call.tool, call.input);
  // Most calls name nothing of interest: answered before anything else is loaded or read.
  if (namesNothing(named)) return {};
  try {
    const paths = await touchedPaths(named, call.cwd, where.home);
    // Paths past a cap are not looked at: said, never dropped in silence (rev79h F2).
    const cut = await pathCuts(named, call.cwd, where.home);
    const said = [...tooLongSaid(named), ...(cut === undefined ? [] : [cut])];
    if (paths.length === 0) return noted(said);
    const env = where.env;
    const agentDir = envAgentDirPath(env, where.home);
    const location = sessionLocation(agent, call.sessionId, { agentDir, env, home: where.home });
    const session = readSession(location);
    const now = (where.now ?? Date.now)();
    // Within a session most calls bring nothing new: said from the memo and a few stats.
    const snapshot = usableSnapshot(session.snapshot, call.cwd, now, where.trusted !== false);
    const contextFiles = snapshot?.options.contextFiles !== false;
    if (snapshot?.memo && nothingNew(paths, snapshot.memo, session.keys, contextFiles))
      return noted(said);
    // Loaded only now: config, presets, rules and the on-touch loading (a bundle of its own in the CLI).
    const { slowContext } = await import("./full.js");
    return await slowContext(agent, call, paths, {
      where,
      now,
      location,
      session,
      snapshot,
      late,
      room,
      said,
      ...(distilledRoom === undefined ? {} : { distilledRoom }),
      ...(appendable === undefined ? {} : { appendable }),
      ...(progress === undefined ? {} : { progress }),
    });
  } catch (error) {
    return { note: `nothing added: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** What may hold a call's text back ({@link callContext}). */
export interface CallLimits {
  room?: number;
  distilledRoom?: number;
  /** Whether the files found can follow the tool's result: false, none is given or kept as given. */
  appendable?: (files: readonly TouchedFile[]) => boolean;
  /** Where your own glob rules' text goes once matched, for an answer past the budget (fx82d). */
  progress?: HookProgress;
}

/** The warning for a call's path arguments left out for their length (rev79h F3), or none. */
function tooLongSaid(named: NamedPaths): Diagnostic[] {
  const n = named.tooLong ?? 0;
  if (n === 0) return [];
  const what = n === 1 ? "a path" : `${n} paths`;
  const message = `${what} of this call not looked at: longer than ${PATH_MAX} characters, which no file's path is`;
  return [{ level: "warning", code: "touch-unresolvable", message }];
}

/** The note of `said` alone, or nothing. */
function noted(said: readonly Diagnostic[]): { note?: string } {
  const note = noteOf(said);
  return note === undefined ? {} : { note };
}

/** Whether a call names no file, shell command or patch: nothing it touches can bring instructions. */
function namesNothing(named: NamedPaths): boolean {
  return (
    named.files.length === 0 &&
    named.shell === undefined &&
    named.patch === undefined &&
    named.tooLong === undefined
  );
}
