import { isAbsolute, relative, sep } from "node:path";
import {
  blockClosing,
  closeOpenBlocks,
  markupAsTextTold,
  readsWithLineAbove,
  withLine,
} from "../_fence.js";
import { notHomeLike, toPosix } from "../_paths.js";
import {
  ELEMENT_END,
  OWNER_MARK,
  repositoryNames,
  TOUCH_ELEMENT,
  writtenXmlNameText,
} from "../_prompt-text.js";
import { wellFormed } from "../_text.js";
import type { TouchedFile } from "../gather/context/on-touch.js";
import { withCheckBudget } from "../sections/html-reading.js";
import type { Diagnostic } from "../types.js";

/**
 * The text a host adds to a tool result (pi's extension, `sysprompt hook`,
 * the opencode plugin): one `<instructions path="…">` element per file
 * (`rule="…"` for a rule, `owner="user"` for yours), its path relative to cwd when inside it. The path
 * is escaped for an attribute; the text was escaped when it was loaded, so
 * it cannot close the element.
 */
export function formatTouched(
  files: readonly TouchedFile[],
  cwd: string,
  shown?: (text: string) => string,
  say?: (diagnostic: Diagnostic) => void,
): string {
  // The files' texts checked in order, to one budget per call (rev65a F2).
  const parts = withCheckBudget(() =>
    files.map((f) => touchedElement(f, cwd, shown, textNamesOf(f), say)),
  );
  // A lone surrogate (a rule named "style\ud800") would make the agent's request one its provider refuses.
  return wellFormed(`${touchedLead(files.length)}\n${parts.join("\n")}`);
}

/** The line before the elements of `count` files. */
export function touchedLead(count: number): string {
  return count === 1
    ? "An instruction file applies to what this call touched (given once per session):"
    : "Instruction files apply to what this call touched (each given once per session):";
}

/**
 * What a file's `path` and `rule` attributes are escaped against when the
 * loader did not say ({@link textNamesOf}: a file built by hand): the names
 * every repository text is ({@link repositoryNames}: this element's, the
 * hosts', the owner mark).
 */
const NAMES: ReadonlySet<string> = repositoryNames();

/**
 * The names each file's text was escaped against, as the loader that gave
 * it recorded them ({@link withTextNames}): the attributes are escaped
 * against the same set, so that they and the text hold the same tags.
 */
const TEXT_NAMES = new WeakMap<TouchedFile, ReadonlySet<string>>();

/**
 * `file`, with `names` recorded as the set its text was escaped against
 * (the loader's, `loadContextForPaths`: the session's, the render's or a
 * hook's element names with {@link repositoryNames}, or yours for your own
 * glob rule): {@link formatTouched} escapes its `path` and `rule` against
 * them. A copy of the file (`{ ...file }`) has none recorded, and falls back
 * to {@link NAMES}.
 */
export function withTextNames(file: TouchedFile, names: ReadonlySet<string>): TouchedFile {
  TEXT_NAMES.set(file, names);
  return file;
}

/** The names `file`'s attributes are escaped against: its text's ({@link withTextNames}), else {@link NAMES}. */
function textNamesOf(file: TouchedFile): ReadonlySet<string> {
  return TEXT_NAMES.get(file) ?? NAMES;
}

/**
 * One file's element, as {@link formatTouched} writes it. `shown`: the text
 * as the host shows it to the model, when it changes it (Gemini CLI writes
 * each `<` and `>` of a hook's text as `&lt;` and `&gt;`, `geminiShows`):
 * what the text leaves open is judged, and closed, as the model reads it.
 * `names`: what its attributes are escaped against (default: the set its
 * text was, {@link textNamesOf}).
 */
export function touchedElement(
  f: TouchedFile,
  cwd: string,
  shown?: (text: string) => string,
  names: ReadonlySet<string> = textNamesOf(f),
  say?: (diagnostic: Diagnostic) => void,
): string {
  // The attributes as the prompt writes a repository's names (xmlNameText with its names): no look-alike
  // tag of the host's, this element's (rev69a F3) or the prompt's own (`user_instructions`, your
  // sections: rev70a F5), the names the text is escaped against; no owner mark in a repository's.
  const rule =
    f.kind === "rule" && f.name !== undefined ? ` rule="${writtenXmlNameText(f.name, names)}"` : "";
  // Written one line by the loader (oneLine), its literal `\u` marked there: not again (rev101e F4).
  // Yours in full, as the prompt's list of rules writes it: the prompt says a file given on touch
  // is yours only at a path that list marks yours (rev107c F4), so the two must read the same.
  const path = writtenXmlNameText(f.owner === "user" ? f.path : shownPath(f.path, cwd), names);
  // Your file carries the mark the prompt gives your rule (`owner="user"`), which a repository's
  // names never spell live (escaped above): the text says whose it is (rev92d F3).
  const owner = f.owner === "user" ? ` ${OWNER_MARK}` : "";
  // The text was escaped when it was loaded; a fence or comment it leaves open is closed inside the element,
  // and a blank line before the closing tag ends a list item or block quote it leaves open
  // (`src/_prompt-text.ts`, ELEMENT_END).
  // Its `<` written `&lt;` where it cannot be closed so is said, as a render says it (fx77c).
  const text =
    shown === undefined
      ? closeOpenBlocks(
          f.content,
          false,
          say && markupAsTextTold(`${f.kind}-markup-as-text`, f.path, say),
        )
      : closedAsShown(f.content, shown);
  // A text the tag line above would change starts after a blank line, read as it was closed (rev65b F4).
  const apart = readsWithLineAbove(text) ? `\n${text}` : text;
  return `<${TOUCH_ELEMENT} path="${path}"${rule}${owner}>\n${apart}${ELEMENT_END}</${TOUCH_ELEMENT}>`;
}

/**
 * `text` with the closer of what it leaves open as `shown(text)` reads: once
 * Gemini CLI wrote its `<` as `&lt;`, no HTML block or comment is left to hide
 * a fence line (`<!--`, then a line of three backticks, then `-->` opens a
 * fence that swallows the files after it and `</hook_context>`), and a `>`
 * starts no block quote. The view keeps the text's lines, so its closer (a
 * fence's, which has no `<` or `>`) closes the same block in the text the
 * hook writes; what the text as written leaves open the model never reads.
 */
function closedAsShown(text: string, shown: (text: string) => string): string {
  const { lead, closer } = blockClosing(shown(text));
  return lead + (closer === undefined ? text : withLine(text, closer));
}

function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const inside = rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return inside ? notHomeLike(toPosix(rel)) : path;
}
