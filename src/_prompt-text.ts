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

function isNameChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  return (
    (c >= "a" && c <= "z") ||
    (c >= "A" && c <= "Z") ||
    (c >= "0" && c <= "9") ||
    c === "_" ||
    c === "-" ||
    c === "." ||
    c === ":"
  );
}

/** Whitespace a reader might skip inside a tag, line breaks included: `<\n/rules>` is still refused. */
function isTagSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";
}

/**
 * A character a reader does not see, or sees as part of the one before it:
 * the hidden ones ({@link isHidden}: controls, zero-width and bidirectional
 * marks), the soft hyphen, the word joiner, combining marks and variation
 * selectors. Inside a tag it is skipped: `</rul\u200des>` and
 * `<\u200b/rules\u0301>` are still `</rules>`.
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

/** `<` and the look-alikes a reader takes for it: fullwidth `＜` (U+FF1C) and small `﹤` (U+FE64). */
const TAG_OPEN = /[<\uff1c\ufe64]/g;

/** `/` and fullwidth `／` (U+FF0F). */
const isSlash = (c: string | undefined) => c === "/" || c === "\uff0f";

/** What may follow a tag's name: `>` (or fullwidth `＞`, small `﹥`), `/`, white space, the end. */
function endsName(c: string | undefined): boolean {
  return (
    c === undefined || c === ">" || c === "\uff1e" || c === "\ufe65" || isSlash(c) || /\s/.test(c)
  );
}

/**
 * `text` with every tag of one of `names` (opening or closing, any case,
 * spaces allowed after `<` and `/`) made literal by writing its `<` as
 * `&lt;`. A file placed inside an element of the prompt can then neither
 * end it early (`</project_context>`) nor start one the prompt gives weight to
 * (`<rules>`, `<user_instructions …>`). The look-alikes of `<` and `/`
 * (fullwidth, small) count as them, and characters a reader does not see
 * ({@link isInvisible}) are skipped, before, inside and after the name.
 * Tags of other names (`</div>`) stay as written. `names` are compared
 * lower-cased.
 */
export function escapeWrapperTags(text: string, names: ReadonlySet<string>): string {
  let out = "";
  let copied = 0;
  TAG_OPEN.lastIndex = 0;
  for (let m = TAG_OPEN.exec(text); m !== null; m = TAG_OPEN.exec(text)) {
    const lt = m.index;
    let i = lt + 1;
    const skip = () => {
      while (isTagSpace(text[i]) || isInvisible(text.charCodeAt(i))) i++;
    };
    skip();
    if (isSlash(text[i])) i++;
    skip();
    let name = "";
    for (;;) {
      const c = text[i];
      if (isNameChar(c)) name += c;
      // White space ends the name (`<rules\npath="x">`); an invisible character does not.
      else if (c === undefined || /\s/.test(c) || !isInvisible(text.charCodeAt(i))) break;
      i++;
    }
    if (name === "") continue;
    // The name must end there: `<rulesX` is another name, `<rules>` and `<rules attr>` are it.
    if (!endsName(text[i])) continue;
    if (!names.has(name.toLowerCase())) continue;
    out += `${text.slice(copied, lt)}&lt;`;
    copied = lt + 1;
    // Go on after the name: a `<` inside it was not there, and the scan stays linear.
    TAG_OPEN.lastIndex = i;
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
