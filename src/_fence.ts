/**
 * Fenced code blocks (CommonMark): the one scanner that the prompt's
 * formatting and gathering's Markdown use. A fence is ``` or ~~~ (three or
 * more), indented by at most three spaces; a backtick fence's info string
 * holds no backtick; a closer is the same character, at least as many, and
 * nothing after it but spaces and tabs. Plain character codes, no regular
 * expressions: each line is read a bounded number of times, whatever it holds.
 */

/** An open fenced code block: its character and how many of them opened it. */
export interface Fence {
  char: "`" | "~";
  length: number;
}

const SPACE = 0x20;
const TAB = 0x09;
const BACKTICK = 0x60;
const TILDE = 0x7e;

/** Up to three spaces of indentation are allowed before a fence (four make indented code). */
const MAX_FENCE_INDENT = 3;

/** The run of three or more backticks or tildes that the line `text[from, to)` starts with. */
function fenceRun(
  text: string,
  from: number,
  to: number,
): { code: number; end: number; length: number } | undefined {
  let at = from;
  while (at < to && at - from < MAX_FENCE_INDENT && text.charCodeAt(at) === SPACE) at++;
  if (at >= to) return undefined;
  const code = text.charCodeAt(at);
  if (code !== BACKTICK && code !== TILDE) return undefined;
  let end = at;
  while (end < to && text.charCodeAt(end) === code) end++;
  if (end - at < 3) return undefined;
  return { code, end, length: end - at };
}

/** The fence that the line `text[from, to)` opens, or undefined. */
export function fenceOpener(text: string, from: number, to: number): Fence | undefined {
  const run = fenceRun(text, from, to);
  if (run === undefined) return undefined;
  if (run.code === BACKTICK) {
    for (let i = run.end; i < to; i++) if (text.charCodeAt(i) === BACKTICK) return undefined;
  }
  return { char: run.code === BACKTICK ? "`" : "~", length: run.length };
}

/** True when the line `text[from, to)` closes `fence`. */
export function closesFence(text: string, from: number, to: number, fence: Fence): boolean {
  const run = fenceRun(text, from, to);
  if (run === undefined || run.length < fence.length) return false;
  if ((run.code === BACKTICK ? "`" : "~") !== fence.char) return false;
  return isBlank(text, run.end, to);
}

/** True when `text[from, to)` holds only spaces and tabs. */
export function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code !== SPACE && code !== TAB) return false;
  }
  return true;
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The fence still open at the end of `text`, read as the prompt's formatting
 * reads it (a CR or CRLF ends a line too, trailing spaces and tabs do not
 * count), or undefined. Linear in the text.
 */
export function openFenceAtEnd(text: string): Fence | undefined {
  const length = text.length;
  let fence: Fence | undefined;
  let start = 0;
  for (;;) {
    let end = start;
    while (end < length) {
      const code = text.charCodeAt(end);
      if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
      end++;
    }
    let contentEnd = end;
    while (contentEnd > start) {
      const code = text.charCodeAt(contentEnd - 1);
      if (code !== SPACE && code !== TAB) break;
      contentEnd--;
    }
    if (fence === undefined) fence = fenceOpener(text, start, contentEnd);
    else if (closesFence(text, start, contentEnd, fence)) fence = undefined;
    if (end >= length) return fence;
    const crlf = text.charCodeAt(end) === CARRIAGE_RETURN && text.charCodeAt(end + 1) === LINE_FEED;
    start = end + (crlf ? 2 : 1);
  }
}

/**
 * `text` with a closing line added when it ends inside a fenced code block:
 * text a repository wrote (a context or rule file, cut at a cap or not, the
 * tree's names) cannot turn what the prompt says after it into code. A text
 * with no fence left open is returned as it is.
 */
export function closeOpenFence(text: string): string {
  const fence = openFenceAtEnd(text);
  if (fence === undefined) return text;
  const lastCode = text.charCodeAt(text.length - 1);
  const newline = text === "" || lastCode === LINE_FEED || lastCode === CARRIAGE_RETURN ? "" : "\n";
  return `${text}${newline}${fence.char.repeat(fence.length)}`;
}

/**
 * `text` with `-->` added on a line of its own when its last `<!--` is never
 * closed: an HTML comment runs to its `-->` or to the end of the document,
 * and one a repository's text leaves open would make what the prompt says
 * after it read as a comment. (`<!-->` closes itself, as CommonMark has it.)
 */
export function closeOpenComment(text: string): string {
  const open = text.lastIndexOf("<!--");
  if (open === -1 || text.lastIndexOf("-->") >= open + 2) return text;
  const lastCode = text.charCodeAt(text.length - 1);
  const newline = lastCode === LINE_FEED || lastCode === CARRIAGE_RETURN ? "" : "\n";
  return `${text}${newline}-->`;
}

/**
 * {@link closeOpenFence}, then {@link closeOpenComment}: a repository's text
 * (a context or rule file, cut at a cap or not, the tree's names) ends with
 * no code block and no comment left open to run over what follows it.
 */
export function closeOpenBlocks(text: string): string {
  return closeOpenComment(closeOpenFence(text));
}
