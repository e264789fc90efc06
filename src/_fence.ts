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
const LESS_THAN = 0x3c;

/**
 * A block still open at the end of a text: a fenced code block (with the
 * spaces its opening line was indented by), or an HTML block of one of the
 * kinds that run to a closing string or to the end of the document
 * (CommonMark's HTML blocks 1-5: `<script`, `<pre`, `<style` or `<textarea`
 * to their end tag, `<!--` to `-->`, `<?` to `?>`, `<!` and a letter to `>`,
 * `<![CDATA[` to `]]>`).
 */
export type OpenBlock =
  | { kind: "fence"; fence: Fence; indent: number }
  | { kind: "html"; closer: string; ignoreCase: boolean };

const RAW_HTML_NAMES = ["script", "pre", "style", "textarea"] as const;

/** The HTML block that the line `text[from, to)` starts (at most three spaces in), or undefined. */
function htmlOpener(text: string, from: number, to: number): OpenBlock | undefined {
  let at = from;
  while (at < to && at - from < MAX_FENCE_INDENT && text.charCodeAt(at) === SPACE) at++;
  if (text.charCodeAt(at) !== LESS_THAN) return undefined;
  const html = (closer: string, ignoreCase = false): OpenBlock => ({
    kind: "html",
    closer,
    ignoreCase,
  });
  if (text.startsWith("<!--", at)) return html("-->");
  if (text.startsWith("<?", at)) return html("?>");
  if (text.startsWith("<![CDATA[", at)) return html("]]>");
  const next = text.charCodeAt(at + 1);
  if (next === 0x21) {
    const letter = text.charCodeAt(at + 2) | 0x20;
    return letter >= 0x61 && letter <= 0x7a && at + 2 < to ? html(">") : undefined;
  }
  for (const name of RAW_HTML_NAMES) {
    const end = at + 1 + name.length;
    if (end > to || text.slice(at + 1, end).toLowerCase() !== name) continue;
    const after = text.charCodeAt(end);
    if (end === to || after === SPACE || after === TAB || after === 0x3e) {
      return html(`</${name}>`, true);
    }
  }
  return undefined;
}

/** True when the line `text[from, to)` holds the HTML block's closing string. */
function endsHtml(text: string, from: number, to: number, block: OpenBlock): boolean {
  if (block.kind !== "html") return false;
  const line = text.slice(from, to);
  return (block.ignoreCase ? line.toLowerCase() : line).includes(block.closer);
}

/**
 * The block still open at the end of `text`, read as CommonMark reads a
 * document's top level: inside a fence nothing starts an HTML block, inside
 * an HTML block nothing opens a fence (a `<!--` line, then a ``` line, then
 * `-->` leaves nothing open). A CR or CRLF ends a line too; trailing spaces
 * and tabs do not count. Linear in the text.
 */
export function openBlockAtEnd(text: string): OpenBlock | undefined {
  const length = text.length;
  let block: OpenBlock | undefined;
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
    if (block === undefined) {
      const fence = fenceOpener(text, start, contentEnd);
      if (fence !== undefined) {
        let indent = 0;
        while (text.charCodeAt(start + indent) === SPACE) indent++;
        block = { kind: "fence", fence, indent };
      } else {
        block = htmlOpener(text, start, contentEnd);
        if (block !== undefined && endsHtml(text, start, contentEnd, block)) block = undefined;
      }
    } else if (block.kind === "fence") {
      if (closesFence(text, start, contentEnd, block.fence)) block = undefined;
    } else if (endsHtml(text, start, contentEnd, block)) block = undefined;
    if (end >= length) return block;
    const crlf = text.charCodeAt(end) === CARRIAGE_RETURN && text.charCodeAt(end + 1) === LINE_FEED;
    start = end + (crlf ? 2 : 1);
  }
}

/** The fence still open at the end of `text` ({@link openBlockAtEnd}), or undefined. */
export function openFenceAtEnd(text: string): Fence | undefined {
  const block = openBlockAtEnd(text);
  return block?.kind === "fence" ? block.fence : undefined;
}

/** `text` and `line` on a line of its own. */
function withLine(text: string, line: string): string {
  const lastCode = text.charCodeAt(text.length - 1);
  const newline = text === "" || lastCode === LINE_FEED || lastCode === CARRIAGE_RETURN ? "" : "\n";
  return `${text}${newline}${line}`;
}

/**
 * `text` with a closing line added when it ends inside a fenced code block
 * or an HTML block that runs to the end of the document
 * ({@link openBlockAtEnd}): text a repository wrote (a context or rule file,
 * cut at a cap or not, the tree's names) cannot turn what the prompt says
 * after it into code or raw HTML. A fence's closer is indented as its opener
 * was, so one opened inside a list item closes there too. A text with
 * nothing left open is returned as it is: a closing line where nothing is
 * open would itself open a fence.
 */
export function closeOpenFence(text: string): string {
  const block = openBlockAtEnd(text);
  if (block === undefined) return text;
  if (block.kind === "html") return withLine(text, block.closer);
  return withLine(text, " ".repeat(block.indent) + block.fence.char.repeat(block.fence.length));
}

/**
 * `text` with `-->` added on a line of its own when its last `<!--` is never
 * closed, anywhere in a line: a reader that takes a comment to run to its
 * `-->` or to the end of the document would otherwise read what the prompt
 * says after it as a comment. (`<!-->` closes itself, as CommonMark has it;
 * a `-->` line opens nothing.)
 */
export function closeOpenComment(text: string): string {
  const open = text.lastIndexOf("<!--");
  if (open === -1 || text.lastIndexOf("-->") >= open + 2) return text;
  return withLine(text, "-->");
}

/**
 * {@link closeOpenFence} (fences and HTML blocks, read together), then
 * {@link closeOpenComment}: a repository's text (a context or rule file, cut
 * at a cap or not, the tree's names) ends with no code block, HTML block or
 * comment left open to run over what follows it.
 */
export function closeOpenBlocks(text: string): string {
  return closeOpenComment(closeOpenFence(text));
}
