import { blockClosingAfter, HOST_RESULT_CHECK_CHARS, hiddenClosingAfter } from "../_fence.js";
import { wellFormed } from "../_text.js";
import type { TextCap, TextMeasure } from "../gather/context/index.js";
import { type RenderLimit, renderLimitWords } from "../prompt-templates/hidden-closers.js";
import {
  COMMENT_CLOSER,
  EMPTY_COMMENT,
  MARKDOWN_BLOCKS,
  rawMarkupCloser,
  withCheckBudget,
} from "../sections/html-reading.js";
import { HOOK_EVENTS, type HookAgent, type ToolAgent } from "./input.js";

/**
 * Room kept for the hook's text, the files' text as {@link GEMINI_CHARS}
 * counts it, after a Gemini CLI shell result: the text is held to it
 * ({@link hookTextCap}), and given only when it fits in what the result
 * leaves before Gemini CLI's cut ({@link GEMINI_SHELL_KEPT_CHARS},
 * `replyStart`'s `room`), so a shell result with the text appended is never cut.
 */
export const GEMINI_SHELL_TEXT_ROOM = 9_500;

/**
 * A hook's text as Gemini CLI counts it once it has it: in UTF-16 units,
 * as it cuts a shell result, after it wrote each `<` and `>` as `&lt;` and
 * `&gt;` (DefaultHookOutput.getAdditionalContext, github.com/google-gemini/gemini-cli),
 * four characters each, and each `&` as the `&amp;` {@link hookReply}
 * writes for it, five, and each look-alike of `&` as its `&amp;#xFF06;`, twelve.
 */
export const GEMINI_CHARS: TextMeasure = {
  unit: "characters",
  size: (text) => {
    let size = text.length;
    for (let i = 0; i < text.length; i++) size += geminiGrowth(text.charCodeAt(i));
    return size;
  },
  head: (text, room) => {
    let used = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length;
      const cost = pair ? 2 : 1 + geminiGrowth(code);
      if (used + cost > room) return text.slice(0, i);
      used += cost;
      if (pair) i++;
    }
    return text;
  },
  shown: (text) => geminiShows(text),
};

/** The characters the escaping (Gemini CLI's of `<` and `>`, the hook's of `&` and its look-alikes) adds for one UTF-16 unit. */
function geminiGrowth(code: number): number {
  if (code === 0x3c || code === 0x3e) return 3;
  if (code === 0x26) return 4;
  // `＆` as `&amp;#xFF06;`: twelve characters for one.
  return code >= 0xa778 && AMPERSAND_LOOK_ALIKES.includes(code) ? 11 : 0;
}

/**
 * The characters read as `&` other than `&` itself: every one whose NFKC
 * form holds `&` (`＆` U+FF06, `﹠` U+FE60: no other in Unicode 17), and
 * `ꝸ` (U+A778), the one source whose prototype is `&` in Unicode 17.0.0's
 * confusables.txt. Each is four hex digits.
 */
const AMPERSAND_LOOK_ALIKES: readonly number[] = [0xfe60, 0xff06, 0xa778];

/** {@link AMPERSAND_LOOK_ALIKES} and `&`, for one pass over the text. */
const AMPERSAND_OR_LOOK_ALIKE = /[&\uFE60\uFF06\uA778]/g;

/**
 * A hook's text as the hook gives it to Gemini CLI ({@link hookReply}):
 * each `&` written `&amp;`, and each of its look-alikes
 * ({@link AMPERSAND_LOOK_ALIKES}) as a numeric reference whose `&` is
 * escaped so too (`＆` as `&amp;#xFF06;`), so that no character of the
 * text, read as written or folded (NFKC, confusables), starts the `&lt;`
 * and `&gt;` Gemini CLI writes for the hook's own tags (review rev109c F2).
 */
export function geminiEscaped(text: string): string {
  return text.replace(AMPERSAND_OR_LOOK_ALIKE, (c) =>
    c === "&" ? "&amp;" : `&amp;#x${c.charCodeAt(0).toString(16).toUpperCase()};`,
  );
}

/**
 * The most of a hook's text each agent keeps whole, counted as it counts it
 * (the files' text, as `formatTouched` writes it). Past 10,000 characters
 * Claude Code saves a hook's additional context to a file and shows the
 * model a 2 KB preview and the path (its hooks reference), and Codex past
 * 2,500 tokens (4 bytes each by its count) a head and tail and the path
 * (codex-rs/hooks/src/output_spill.rs; `additionalContextLimit` changes it):
 * 9,500 UTF-8 bytes, 500 kept to spare. Gemini CLI and opencode keep the
 * text whole; Gemini CLI's cap is the shell's ({@link hookTextCap}).
 */
export const HOOK_TEXT_CAPS: Readonly<Partial<Record<ToolAgent, TextCap>>> = {
  "claude-code": { max: 9_500 },
  codex: { max: 9_500 },
};

/**
 * Gemini CLI keeps a hook's text whole, but cuts a shell command's result
 * with the text appended ({@link GEMINI_SHELL_KEPT_CHARS}): there the text is
 * held to {@link GEMINI_SHELL_TEXT_ROOM} as {@link GEMINI_CHARS} counts it.
 */
const GEMINI_SHELL_CAP: TextCap = { max: GEMINI_SHELL_TEXT_ROOM, measure: GEMINI_CHARS };

/**
 * The cap on the hook's text for a call of `agent`'s `tool`
 * ({@link HOOK_TEXT_CAPS}): for Gemini CLI only a shell command's, the one
 * result it cuts (the rest, read_file's included, it keeps whole, and a
 * tool that is not listed, an MCP server's, brings no files in); with its
 * context management on (`distills`), every tool's but read_file's and
 * read_many_files's, which it then distills ({@link GEMINI_UNDISTILLED}).
 */
export function hookTextCap(agent: ToolAgent, tool: string, distills = false): TextCap | undefined {
  if (agent === "gemini-cli") {
    return tool === GEMINI_SHELL_TOOL || (distills && !GEMINI_UNDISTILLED.has(tool))
      ? GEMINI_SHELL_CAP
      : undefined;
  }
  return HOOK_TEXT_CAPS[agent];
}

/**
 * What `sysprompt hook AGENT` prints on stdout. Pure. With `context`: the
 * agent's hook output that appends text to the tool result it sends the
 * model (`hookSpecificOutput.additionalContext`, the same field in all
 * three). Without: the reply that changes nothing, which Claude Code and
 * Codex take as empty output and Gemini CLI as `{}` (it parses stdout as JSON).
 *
 * For Gemini CLI each `&` of the text is written `&amp;`: Gemini CLI writes
 * `<` and `>` as `&lt;` and `&gt;` but leaves `&`, so a repository's
 * `</instructions>`, escaped as `&lt;/instructions>`, or its own
 * `&lt;/instructions&gt;`, would read exactly as Gemini CLI shows the real
 * closing tag. With `&` escaped too, the model reads the whole text escaped
 * once, and `&lt;` only where the hook wrote a `<`; so are the characters
 * read as `&` (`＆lt;/instructions＆gt;`: {@link geminiEscaped}).
 */
export function hookReply(agent: HookAgent, context: string | undefined, closer = ""): string {
  if (context === undefined || context === "") return agent === "gemini-cli" ? "{}\n" : "";
  const shown = agent === "gemini-cli" ? geminiEscaped(context) : context;
  const text = closer === "" ? shown : `${closer}\n\n${shown}`;
  const output = { hookEventName: HOOK_EVENTS[agent], additionalContext: wellFormed(text) };
  return `${JSON.stringify({ hookSpecificOutput: output })}\n`;
}

/**
 * Longest tool result whose text is read for what it leaves open: reading
 * is linear, but 1 MiB of `>` took 1.9 s at a load of 19 on two cores (30 MB,
 * which the hook's 32 MiB input holds, 84 s). Gemini CLI's read_file gives
 * at most 2,000 lines.
 */
export const MAX_RESULT_TEXT = 1024 * 1024;

/**
 * Gemini CLI cuts a shell command's result, the hook's text already appended,
 * past this many characters unless its settings' `tools.truncateToolOutputThreshold`
 * is lower (`geminiShellKept`): the model sees its first fifth and last four
 * fifths with a line between (DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD, applied
 * in tool-executor.ts after the hooks ran, github.com/google-gemini/gemini-cli).
 * A closer read on the whole result would then close nothing, or open a
 * fence, and the files given could fall in the part cut out.
 */
export const GEMINI_SHELL_KEPT_CHARS = 40_000;

/**
 * Past how many characters Gemini CLI 0.61 distills a tool's result, the
 * hook's text appended, with `experimental.contextManagement` on
 * (ToolOutputDistillationService: four characters a token of
 * `maxOutputTokens`, 10,000, which no setting changes): the model sees the
 * first fifth and the last four fifths of some 30,000 characters, fewer when
 * the result's start is not ASCII, and a shell command's result is not cut at
 * `tools.truncateToolOutputThreshold` then.
 */
export const GEMINI_DISTILL_CHARS = 40_000;

/** The tools whose results Gemini CLI never distills (isExemptFromDistillation). */
export const GEMINI_UNDISTILLED = new Set(["read_file", "read_many_files"]);

/** The shell tool whose result Gemini CLI cuts ({@link GEMINI_SHELL_KEPT_CHARS}). */
export const GEMINI_SHELL_TOOL = "run_shell_command";

/**
 * What the hook's reply starts with ({@link hookReply}'s `closer`): the
 * closer of what the tool's result leaves open, for an agent that appends
 * the hook's text to it ({@link textBefore}), else "". Or nothing may follow
 * the result, and `nothing` says why: it is longer than
 * {@link MAX_RESULT_TEXT} (what it leaves open is not known); Gemini CLI
 * would cut a shell result with the closer and any text after it; or the closer holds a
 * `<` or `>` that Gemini CLI's escaping ({@link geminiShows}) leaves
 * closing nothing (`-->`, `</script>`, `?>`, `]]>`: the comment or block
 * would run on over the files given), as does the end tag of an element
 * no reader shows left open (`<div hidden>`, `<template>`:
 * {@link hiddenClosingAfter}; review rev58b F1). What is left open is judged as
 * CommonMark reads it ({@link blockClosingAfter}): only a comment or HTML
 * block that starts a block runs on; a `<!--` mid-line, in a code span or
 * a path opens nothing, and the files follow it. For a shell command,
 * `room` is the most text, as {@link GEMINI_CHARS} counts it, that Gemini
 * CLI keeps uncut after the output and the closer: a longer text is not
 * given, and the files come with a later call (`callContext`'s `room`).
 * Gemini CLI's settings may cut lower: the hook's full path takes the
 * difference off the room (`geminiCut`). For Gemini CLI's other tools but
 * read_file and read_many_files, `distilledRoom` is the same room before
 * {@link GEMINI_DISTILL_CHARS}: what the full path holds the text to when
 * Gemini CLI's settings turn its context management on.
 */
export function replyStart(
  agent: HookAgent,
  resultText: string | undefined,
  tool = "",
): { closer: string; room?: number; distilledRoom?: number } | { nothing: string } {
  const before = textBefore(agent, resultText);
  if (before === undefined) return { closer: "" };
  // Refusals by length first, before any reading (rev66e F1).
  if (before.length > MAX_RESULT_TEXT)
    return {
      nothing: `is longer than ${MAX_RESULT_TEXT} characters, too long to read for a fence or comment it leaves open`,
    };
  const end = "</hook_context>".length;
  if (tool === GEMINI_SHELL_TOOL && GEMINI_SHELL_KEPT_CHARS - before.length - end <= 0)
    return { nothing: shellCut() };
  // `before` holds `<hook_context>`, so its check always runs: held to pi's and opencode's per-result budget.
  if (before.length > HOST_RESULT_CHECK_CHARS)
    return {
      nothing: `is longer than ${HOST_RESULT_CHECK_CHARS} characters, more than the hook checks for an element left open that hides what follows`,
    };
  // What a raw reader has read when Gemini CLI's own `<hook_context>` starts.
  if (endsInRawMarkup(before.slice(0, before.length - "<hook_context>".length)))
    return {
      nothing:
        "ends inside markup left unended (a tag, an attribute's value, an end tag, a bogus comment or CDATA), whose ending Gemini CLI would write with &lt; and &gt;, which close nothing",
    };
  // As CommonMark reads it: a `<!--` that starts no block opens nothing, and a `-->` for it would arrive escaped.
  const closer = blockClosingAfter(before);
  // Read again as Gemini CLI shows it, only when the escaping changed the closer (a fence's has no `<` or `>`).
  if (/[<>]/.test(closer) && blockClosingAfter(`${before}${geminiShows(closer)}\n\n`) !== "")
    return {
      nothing: `ends inside an HTML comment or block whose closer (${JSON.stringify(closer.trim())}) Gemini CLI writes with &lt; and &gt;, which close nothing`,
    };
  // An element no reader shows left open (`<div hidden>`): its end tag would arrive as `&lt;/div&gt;`.
  let limit: RenderLimit | undefined;
  const hidden = withCheckBudget(
    () =>
      hiddenClosingAfter(
        `${before}${geminiShows(closer)}`,
        (l) => {
          limit ??= l;
        },
        // Only what hides: an element left open that holds shown text (`<b>`, `<div>`, a table)
        // keeps the files shown, and its closer could not arrive as a tag (rev78e F1).
        true,
      ),
    HOST_RESULT_CHECK_CHARS,
  );
  // The renderer's bound the check stopped at, said as it is (rev71b F2: 129 `> ` and no `<` "held HTML").
  if (hidden === undefined && limit !== undefined)
    return {
      nothing: `${renderLimitWords(limit)}, so the check could not tell whether its end hides the files after it`,
    };
  if (hidden === undefined)
    return {
      nothing: `holds HTML whose end sysprompt could not read or close so that the files after it are shown (an element nothing closes, such as <plaintext>, or more HTML than one reading takes)`,
    };
  if (hidden !== "")
    return {
      nothing: `ends inside an element no reader shows (closed by ${JSON.stringify(hidden.trim().split("\n").pop()?.replace(EMPTY_COMMENT, "").replaceAll(MARKDOWN_BLOCKS, ""))}), whose end tag Gemini CLI writes with &lt; and &gt;, which close nothing`,
    };
  // The closer and its blank line come before the files' text, in the same string Gemini CLI cuts.
  const lead = closer === "" ? 0 : GEMINI_CHARS.size(closer) + 2;
  if (tool === GEMINI_SHELL_TOOL) {
    const room = GEMINI_SHELL_KEPT_CHARS - before.length - lead - end;
    if (room <= 0) return { nothing: shellCut() };
    return { closer, room };
  }
  // Counted for every other tool it may distill; used only when its settings turn that on (`geminiCut`).
  if (!GEMINI_UNDISTILLED.has(tool)) {
    return { closer, distilledRoom: GEMINI_DISTILL_CHARS - before.length - lead - end };
  }
  return { closer };
}

/**
 * Whether a raw reader of the tool's result (an HTML tokenizer fed it as it
 * is) is still inside markup at its end other than a comment: a tag's name
 * or attributes, a quoted value (`Link: <a href='`), an end tag, a bogus
 * comment or declaration, CDATA ({@link unendedMarkupAt}, then
 * {@link rawMarkupCloser}, parse5's tokenizer only where markup is left
 * unended; "cannot be told" counts as inside). Gemini CLI writes the hook's
 * `<` and `>` as `&lt;` and `&gt;`, so no ending can arrive: the files,
 * after its `<hook_context>`, would be in the value or the tag, or that tag
 * eaten by it, so nothing is appended and the files come with a later call,
 * as pi and opencode do when their ending is not confirmed
 * (`tool-result-markup-as-text`; decided, fx88d, rev82c F3's known limit).
 * `read` is the result and the blank line Gemini CLI writes after it, what
 * a raw reader has read when its `<hook_context>` starts: that tag's `>` may
 * end the reader's, but by eating the tag (`</a` then `<hook_context>`). A
 * comment left open, as the tokenizer reads it (`-->` its ending: not a
 * `<!--` in a raw-text element, rev89f F1), is CommonMark's reading's
 * (`blockClosingAfter`): an inline `<!--` opens nothing (rev39b F1).
 */
function endsInRawMarkup(read: string): boolean {
  // The tokenizer's own end state decides that it is a comment: a `<!--` in `<style>` or
  // `<textarea>` is their text, and `</style><a href='` after it a tag (rev89f F1).
  const closer = rawMarkupCloser(read);
  return closer !== "" && closer !== COMMENT_CLOSER;
}

/** Why another tool's result gets nothing: with the files' text Gemini CLI would distill it. */
export function distilledCut(size?: number): string {
  const text = size === undefined ? "" : ` (${size} characters as Gemini CLI counts them)`;
  return `is one that, with the files added${text}, Gemini CLI would distill past ${GEMINI_DISTILL_CHARS} characters (its settings turn experimental.contextManagement on)`;
}

/** Why a shell command's output gets nothing: with the files' text Gemini CLI would cut it. */
export function shellCut(size?: number, kept = GEMINI_SHELL_KEPT_CHARS): string {
  const text = size === undefined ? "" : ` (${size} characters as Gemini CLI counts them)`;
  return `is a shell command's output that, with the files added${text}, Gemini CLI would cut past ${kept} characters`;
}

/**
 * A hook's text as Gemini CLI shows it to the model: each `<` and `>` as
 * `&lt;` and `&gt;` (DefaultHookOutput.getAdditionalContext); the tool's
 * result before it stays as it was.
 */
export function geminiShows(text: string): string {
  return text.replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * What the model reads right before the hook's text in the same string,
 * for an agent that appends it to the tool's result: Gemini CLI writes
 * `\n\n<hook_context>`, the text and `</hook_context>` after the result's
 * text, which is the repository's (a file its read printed); one ending
 * inside a fence, an HTML block or a comment would take the files given
 * into it, so the reply starts with the closer that text needs
 * (`blockClosingAfter`). Undefined for Claude Code, which adds the hook's text as
 * a system reminder of its own, and Codex, which adds it as a developer
 * message of its own (`<hook_context>…</hook_context>`): nothing of the
 * repository's comes before it there.
 */
export function textBefore(agent: HookAgent, resultText: string | undefined): string | undefined {
  if (agent !== "gemini-cli") return undefined;
  return `${resultText ?? ""}\n\n<hook_context>`;
}
