import {
  checkAffordable,
  followingShown,
  OVER_BUDGET_WORDS,
  paidCheck,
  type RenderLimit,
  withHtmlClosed,
} from "../sections/html-reading.js";
import { markdownAsHtml } from "../sections/markdown-html.js";

/**
 * `text` with the closers, each on a line of its own (`withLine`), of what
 * it leaves open at its end that hides what would follow (an element with
 * `hidden`, a `<template>`, `<details>`, a hiding style, a comment, a start
 * tag not yet ended, raw text) or that holds what would follow (any element
 * left open, a formatting element a reader opens again: the prompt's own tags
 * are text to CommonMark and end none of them), as an HTML tree builder reads
 * the Markdown ({@link withHtmlClosed}), so that nothing after it is read inside.
 * `blocks` is `_fence.ts`'s ({@link BlockClosing}), given by its callers,
 * after the Markdown blocks are closed. A repository's `AGENTS.md` ending in
 * `<div hidden>` put your skills and every later section in the hidden
 * element (review rev57b F9). A text nothing can close (`<plaintext>`), or
 * more than one reading takes, has each `<` a Markdown renderer passes on as
 * markup written `&lt;`: nothing in it is markup then. `unread`, given for a
 * text of yours (your SYSTEM.md, an appended text): such a text is returned
 * as you wrote it, and `unread` called (rev64b F2: 20,001 `<` of yours were
 * all printed `&lt;`, with no word). Only text that is not yours is rewritten.
 * A text not yours past what is left of the check's budget ({@link paidCheck}:
 * the render's or the call's, charged when its check starts) is not checked:
 * every `<` in it is written `&lt;` (`over-budget`), which needs no check.
 * Yours is checked whatever is left, and charges nothing. Every text a fallback
 * rewrites is closed again ({@link BlockClosing.close}): a fence line in an
 * HTML block opens a fence once the block's `<` is `&lt;` (rev66e F8).
 */
export function closeHiddenRuns(
  text: string,
  blocks: BlockClosing,
  options: HiddenRunsOptions = {},
): string {
  if (!text.includes("<")) return text;
  // Charged when its work starts; yours never (rev66e F2, F3). Past the budget: the instant fallback.
  return paidCheck(
    text,
    () => checkedClosing(text, blocks, options),
    () => overBudget(text, blocks, options),
    options.unread !== undefined,
  );
}

/** {@link closeHiddenRuns} past the check's budget: yours kept as written, another's every `<` written `&lt;`, which needs no check. */
function overBudget(
  text: string,
  blocks: BlockClosing,
  { onFallback, unread }: HiddenRunsOptions,
): string {
  if (unread !== undefined) {
    unread();
    return text;
  }
  onFallback?.("over-budget");
  return blocks.close(everyLtOf(text));
}

/** {@link closeHiddenRuns} within the budget. */
function checkedClosing(
  text: string,
  blocks: BlockClosing,
  { onFallback, unread, hidesOnly }: HiddenRunsOptions,
): string {
  const captures = hidesOnly !== true;
  // The renderer's bound the check stopped at, if that is why it gave up: said so (rev71b F1).
  let limit: RenderLimit | undefined;
  const closed = withHtmlClosed(
    text,
    blocks.withLine,
    (l) => {
      limit ??= l;
    },
    captures,
  );
  if (closed !== undefined) return closed;
  if (unread !== undefined) {
    unread();
    return text;
  }
  // Each fallback checked as the closers are: a paragraph after it must be shown (rev64e). Each
  // check past the first render is charged; past what is left, the instant fallback (rev68e F3).
  const asText = blocks.close(markupAsText(text));
  if (!checkAffordable(asText)) return overBudget(text, blocks, { onFallback });
  if (followingShown(asText, "\n\n", undefined, captures)) {
    onFallback?.("markup-as-text", limit);
    return asText;
  }
  const everyLt = blocks.close(everyLtOf(text));
  if (!checkAffordable(everyLt)) return overBudget(text, blocks, { onFallback });
  const shown = followingShown(everyLt, "\n\n", undefined, captures);
  onFallback?.(shown ? "every-lt" : "dropped", limit);
  return shown ? everyLt : "";
}

/**
 * How the Markdown blocks of a text are closed, given by `_fence.ts` (which
 * imports this module): `withLine` puts a closer on a line of its own, and
 * `close` closes the fence, HTML block and comment a text leaves open
 * (linear, no budget). {@link closeHiddenRuns} runs `close` on every text it
 * rewrites: with its `<` written `&lt;`, a fence line that was inside an
 * HTML block (`<pre>`, `<!--`, `<div>`) opens a fence, and every later
 * section of the prompt was the repository's code (rev66e F8).
 */
export interface BlockClosing {
  withLine(text: string, line: string): string;
  close(text: string): string;
}

/** `text` with every `<` written `&lt;`. */
export function everyLtOf(text: string): string {
  return text.replaceAll("<", "&lt;");
}

export type { RenderLimit };

/** What {@link closeHiddenRuns} did with a text it could not close: its markup written as text, every `<` written `&lt;`, or the text left out; `over-budget`: every `<` written `&lt;`, the check's budget spent ({@link withCheckBudget}). */
export type HtmlFallback = "markup-as-text" | "every-lt" | "dropped" | "over-budget";

/**
 * What a warning says of a repository's text that took `fallback` (a
 * context or rule file, a project's section, partial or appended part):
 * one wording, so the budget's is never read as a text left open (rev66e F7),
 * nor a text the renderer's bound stopped the check of (`limit`, told by
 * {@link closeHiddenRuns}'s `onFallback`: {@link renderLimitWords}, rev71b F1).
 */
export function fallbackMessage(fallback: HtmlFallback, limit?: RenderLimit): string {
  if (fallback === "over-budget") return OVER_BUDGET_WORDS;
  const what =
    fallback === "dropped"
      ? "it is left out"
      : fallback === "every-lt"
        ? "every < in it is written as text (&lt;)"
        : "its HTML is written as text";
  if (limit !== undefined)
    return `${renderLimitWords(limit)}, so the check could not tell whether its end hides the prompt after it: ${what}`;
  return `leaves HTML open at its end that could not be closed so that the prompt after it is shown (too much of it, or a <plaintext>): ${what}`;
}

/**
 * Why the check of a text stopped at a bound of the renderer's
 * ({@link RenderLimit}), said of the text: the one wording of each cause, for
 * {@link fallbackMessage} and Gemini CLI's hook alike (rev71b F1, F2: 129
 * nested `>` with no `<` at all were said to hold HTML left open).
 */
export function renderLimitWords(limit: RenderLimit): string {
  if (limit.kind === "depth")
    return `nests block quotes and list items ${limit.depth} deep, deeper than the ${limit.most} levels sysprompt's HTML check reads`;
  if (limit.kind === "walk")
    return `keeps block quotes and list items open over more lines than sysprompt's HTML check reads (${limit.most.toLocaleString("en-US")} in all, each counted once for each line it is open on)`;
  return "is more work for the Markdown renderer than sysprompt's HTML check allows (such as a long paragraph dense with code spans, links or emphasis)";
}

/** How {@link closeHiddenRuns} tells what it did: `onFallback` for a text not yours, `unread` marks the text as yours. */
export interface HiddenRunsOptions {
  /** Called with the fallback taken for a text that could not be closed, and the renderer's bound its check stopped at, if that is why ({@link fallbackMessage}). */
  onFallback?: (fallback: HtmlFallback, limit?: RenderLimit) => void;
  /** Given for a text of yours: kept as you wrote it when it cannot be closed, and this called. */
  unread?: () => void;
  /**
   * Close only what hides what follows, and judge only that (a host that cannot write closers,
   * Gemini CLI's hook: an open `<b>` or `<div>` holds shown text, rev78e F1); else what captures too.
   */
  hidesOnly?: boolean;
}

/** `text` with each `<` that {@link markdownAsHtml} leaves as markup written `&lt;`. Linear. */
export function markupAsText(text: string): string {
  const view = markdownAsHtml(text);
  let out = "";
  let from = 0;
  for (let at = view.indexOf("<"); at !== -1; at = view.indexOf("<", at + 1)) {
    out += `${text.slice(from, at)}&lt;`;
    from = at + 1;
  }
  return out + text.slice(from);
}
