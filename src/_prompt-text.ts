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
  return c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f";
}

/**
 * `text` with every tag of one of `names` (opening or closing, any case,
 * spaces allowed after `<` and `/`) made literal by writing its `<` as
 * `&lt;`. A file placed inside an element of the prompt can then neither
 * end it early (`</project_context>`) nor start one the prompt gives weight to
 * (`<rules>`, `<user_instructions …>`). Tags of other names (`</div>`) stay
 * as written. `names` are compared lower-cased.
 */
export function escapeWrapperTags(text: string, names: ReadonlySet<string>): string {
  let out = "";
  let copied = 0;
  for (let lt = text.indexOf("<"); lt !== -1; lt = text.indexOf("<", lt + 1)) {
    let i = lt + 1;
    while (isTagSpace(text[i])) i++;
    if (text[i] === "/") i++;
    while (isTagSpace(text[i])) i++;
    const start = i;
    while (isNameChar(text[i])) i++;
    if (i === start) continue;
    // The name must end there: `<rulesX` is another name, `<rules>` and `<rules attr>` are it.
    const after = text[i];
    if (after !== undefined && after !== ">" && after !== "/" && !/\s/.test(after)) continue;
    if (!names.has(text.slice(start, i).toLowerCase())) continue;
    out += `${text.slice(copied, lt)}&lt;`;
    copied = lt + 1;
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
