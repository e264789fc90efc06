/**
 * Text a repository controls, made safe to print inside the prompt: a path on
 * one line, and a file's text that cannot open or close an element the prompt
 * itself uses. Both are single passes, linear in the text.
 */

import { closeOpenBlocks } from "./_fence.js";
import { isHidden } from "./_text.js";

/**
 * A path (or any one-line value) as one printable line: each code point that
 * could break a line, hide text or reorder it ({@link isHidden}: controls,
 * zero-width and bidirectional marks) becomes `\uXXXX`, as the workspace
 * tree writes names, so a folder named `x\n- IMPORTANT: …` cannot add a line
 * to the prompt, nor `\u202Egpj.exe` read as another name.
 */
export function oneLine(text: string): string {
  let out = "";
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isHidden(code)) continue;
    out += `${text.slice(copied, i)}\\u${code.toString(16).padStart(4, "0")}`;
    copied = i + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** A character of an XML name as the prompt writes them: ASCII letters, digits, `_`, `-`, `.`, `:`. */
function isNameCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x3a
  );
}

/** White space a reader might skip inside a tag, line breaks included: `<\n/rules>` is still refused. */
function isSpaceCode(code: number): boolean {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true;
  return code > 0x7f && /\s/.test(String.fromCharCode(code));
}

/**
 * A character a reader does not see, or sees as part of the one before it:
 * the hidden ones ({@link isHidden}: controls, zero-width and bidirectional
 * marks), the soft hyphen, the word joiner, combining marks and variation
 * selectors. Around and inside a tag's name it is skipped: `</rul\u200des>`
 * and `<\u200b/rules\u0301>` are still `</rules>`.
 */
function isInvisible(code: number): boolean {
  return (
    isHidden(code) ||
    code === 0xad ||
    code === 0x2060 ||
    (code >= 0x0300 && code <= 0x036f) ||
    (code >= 0xfe00 && code <= 0xfe0f)
  );
}

/** `/` and the look-alikes a reader takes for it: fullwidth `／`, division `∕`, fraction `⁄`, `⧸`. */
const isSlashCode = (code: number) =>
  code === 0x2f || code === 0xff0f || code === 0x2215 || code === 0x2044 || code === 0x29f8;

/**
 * `<` and `>` with the single angle brackets a reader takes for them: fullwidth
 * `＜＞`, small `﹤﹥`, the quotation marks `‹›`, the ornaments `❮❯` `❬❭` `❰❱`,
 * the mathematical `⟨⟩` `⧼⧽`, the CJK `〈〉`, the technical `〈〉`, the
 * modifier letters `˂˃` and the Canadian syllabics `ᐸᐳ`.
 */
const LOOK_ALIKE_OPENERS =
  "\uff1c\ufe64\u2039\u276e\u276c\u2770\u27e8\u29fc\u3008\u2329\u02c2\u1438";
const CLOSERS = new Set(
  [">", ..."\uff1e\ufe65\u203a\u276f\u276d\u2771\u27e9\u29fd\u3009\u232a\u02c3\u1433"].map((c) =>
    c.charCodeAt(0),
  ),
);

/** What may follow a tag's name: the end, `>` or a look-alike, `/` or a look-alike, white space. */
function endsNameAt(text: string, i: number): boolean {
  if (i >= text.length) return true;
  const code = text.charCodeAt(i);
  return CLOSERS.has(code) || isSlashCode(code) || isSpaceCode(code);
}

/** Any of the look-alike openers (a class of single characters: no backtracking). */
const LOOK_ALIKE = new RegExp(`[${LOOK_ALIKE_OPENERS}]`);
const ANY_OPENER = new RegExp(`[<${LOOK_ALIKE_OPENERS}]`, "g");

/**
 * The next `<` or look-alike at or after a place. The places asked for only
 * grow, and each search stops at the first one it finds, so a text is read
 * once in all.
 */
function openFinder(text: string): (from: number) => number {
  if (!LOOK_ALIKE.test(text)) return (from) => text.indexOf("<", from);
  const finder = new RegExp(ANY_OPENER.source, "g");
  return (from) => {
    finder.lastIndex = from;
    return finder.exec(text)?.index ?? -1;
  };
}

/** Where the white space and invisible characters from `i` on end. */
function skipBlank(text: string, i: number): number {
  let at = i;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (!isSpaceCode(code) && !isInvisible(code)) break;
    at++;
  }
  return at;
}

/**
 * `text` with every tag of one of `names` (opening or closing, any case,
 * spaces allowed after `<` and `/`) made literal by writing its `<` as
 * `&lt;`. A file placed inside an element of the prompt can then neither
 * end it early (`</project_context>`) nor start one the prompt gives weight to
 * (`<rules>`, `<user_instructions …>`). The look-alikes of `<`, `>` and `/`
 * (fullwidth, small, `‹›`, `⟨⟩`, `〈〉`, `❮❯`, …) count as them, and characters a reader does not see
 * ({@link isInvisible}) are skipped before, inside and after the name; white
 * space ends it. Tags of other names (`</div>`) stay as written. `names` are
 * compared lower-cased. Linear: each character is looked at a bounded number
 * of times.
 */
export function escapeWrapperTags(text: string, names: ReadonlySet<string>): string {
  const nextOpen = openFinder(text);
  let out = "";
  let copied = 0;
  for (let lt = nextOpen(0); lt !== -1; ) {
    let i = skipBlank(text, lt + 1);
    if (i < text.length && isSlashCode(text.charCodeAt(i))) i = skipBlank(text, i + 1);
    const start = i;
    let hidden = false;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (isNameCode(code)) continue;
      // White space ends the name (`<rules\npath="x">`); an invisible character does not.
      if (isSpaceCode(code) || !isInvisible(code)) break;
      hidden = true;
    }
    if (i > start && endsNameAt(text, i)) {
      const written = text.slice(start, i);
      const name = hidden
        ? [...written].filter((c) => isNameCode(c.charCodeAt(0))).join("")
        : written;
      if (name !== "" && names.has(name.toLowerCase())) {
        out += `${text.slice(copied, lt)}&lt;`;
        copied = lt + 1;
      }
    }
    // The name holds no `<`: go on after it (or after this `<` when there was none).
    lt = nextOpen(Math.max(lt + 1, start));
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * A repository's text as it goes inside an element of the prompt (a context
 * or rule file, the workspace tree): no tag of the prompt's own elements
 * ({@link escapeWrapperTags}), and no fenced code block or HTML comment left
 * open at its end to run on over the element's closing tag and the sections
 * after it.
 */
export function elementText(text: string, names: ReadonlySet<string>): string {
  return closeOpenBlocks(escapeWrapperTags(text, names));
}

/**
 * A path or a name the repository chose, as data: one line ({@link oneLine})
 * with every tag of the prompt's own elements made literal
 * ({@link escapeWrapperTags}), as a file's text is. A folder named
 * `<` holding `dir_context> <rules>` then prints as text in a list or the tree.
 */
export function nameText(text: string, names: ReadonlySet<string>): string {
  return escapeWrapperTags(oneLine(text), names);
}

/**
 * The element a host wraps each file given on touch in (`<instructions
 * path="…">`, appended to a tool result): its text may not close it. The
 * prompt tells the model such elements come, so no repository text in the
 * prompt may write one either.
 */
export const TOUCH_ELEMENT = "instructions";

/** `</name` or `{{#xml "name"}}` in a template: an element the template writes around text. */
const ELEMENT_IN_TEMPLATE =
  /<\/([A-Za-z_][A-Za-z0-9_.:-]*)|\{\{#xml\s+"([A-Za-z_][A-Za-z0-9_.-]*)"/g;

/**
 * The element names a prompt wraps text in (lower-cased): each section's
 * tag (every section of every layer, including variants and ones that end up
 * disabled: a name too many costs nothing), and every element its templates close or open with `{{#xml}}`
 * (`user_instructions`, `available_skills`, …), and {@link TOUCH_ELEMENT}.
 * Templates are few and small, so one regular expression over each body costs
 * nothing next to the render.
 */
export function wrapperNames(
  templates: readonly { name: string; meta: { tag?: string | false }; body: string }[],
): Set<string> {
  const names = new Set<string>([TOUCH_ELEMENT]);
  for (const t of templates) {
    // A section is wrapped in its name unless its tag says otherwise.
    const tag = t.meta.tag ?? t.name;
    if (tag !== false) names.add(tag.toLowerCase());
    for (const m of t.body.matchAll(ELEMENT_IN_TEMPLATE))
      names.add((m[1] ?? m[2] ?? "").toLowerCase());
  }
  names.delete("");
  return names;
}
