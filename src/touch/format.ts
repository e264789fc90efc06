import { isAbsolute, relative, sep } from "node:path";
import { escapeXml } from "../../helpers/xml.js";
import { closeOpenBlocks } from "../_fence.js";
import { notHomeLike, toPosix } from "../_paths.js";
import { ELEMENT_END, TOUCH_ELEMENT } from "../_prompt-text.js";
import { wellFormed } from "../_text.js";
import type { TouchedFile } from "../gather/context/on-touch.js";

/**
 * The text a host adds to a tool result (pi's extension, `sysprompt hook`,
 * the opencode plugin): one `<instructions path="…">` element per file
 * (`rule="…"` for a rule), its path relative to cwd when inside it. The path
 * is escaped for an attribute; the text was escaped when it was loaded, so
 * it cannot close the element.
 */
export function formatTouched(files: readonly TouchedFile[], cwd: string): string {
  const parts = files.map((f) => touchedElement(f, cwd));
  // A lone surrogate (a rule named "style\ud800") would make the agent's request one its provider refuses.
  return wellFormed(`${touchedLead(files.length)}\n${parts.join("\n")}`);
}

/** The line before the elements of `count` files. */
export function touchedLead(count: number): string {
  return count === 1
    ? "An instruction file applies to what this call touched (given once per session):"
    : "Instruction files apply to what this call touched (each given once per session):";
}

/** One file's element, as {@link formatTouched} writes it. */
export function touchedElement(f: TouchedFile, cwd: string): string {
  const rule = f.kind === "rule" && f.name !== undefined ? ` rule="${escapeXml(f.name)}"` : "";
  const path = escapeXml(shownPath(f.path, cwd));
  // The text was escaped when it was loaded; a fence or comment it leaves open is closed inside the element,
  // and a blank line before the closing tag ends a list item or block quote it leaves open
  // (`src/_prompt-text.ts`, ELEMENT_END).
  return `<${TOUCH_ELEMENT} path="${path}"${rule}>\n${closeOpenBlocks(f.content)}${ELEMENT_END}</${TOUCH_ELEMENT}>`;
}

function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const inside = rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return inside ? notHomeLike(toPosix(rel)) : path;
}
