import { toPosix } from "../../_paths.js";
import type { PreparedPrompt } from "../../render-system-prompt.js";
import type { SectionTemplate } from "../../sections/types.js";
import type { Diagnostic, RenderResult } from "../../types.js";

/** Why a section is, or is not, in the prompt. */
export type SectionStatus = "rendered" | "disabled" | "replaced" | "failed" | "empty" | "unknown";

/** The files a section may come from: its template and every version below it. */
function sectionFiles(name: string, prepared: PreparedPrompt, result: RenderResult): Set<string> {
  const files = new Set<string>();
  for (let t: SectionTemplate | undefined = template(name, prepared); t; t = t.lower) {
    if (t.source.path) files.add(t.source.path);
  }
  const rendered = result.sections.find((s) => s.name === name);
  if (rendered?.source.path) files.add(rendered.source.path);
  return files;
}

function template(name: string, prepared: PreparedPrompt): SectionTemplate | undefined {
  return prepared.templates.find((t) => t.name === name);
}

/**
 * The diagnostics about one section: those located in one of its files, in a
 * file whose path it prints (a rule file the section shows), those whose
 * message names it (as a word), and every `user-text-left-out` (a text of
 * yours the render left out or printed as the repository's: before review
 * rev104c F3, `render --section project_rules` printed the project's rules
 * that replaced yours, named like them, with stderr empty, the warnings being
 * located in your rule files and naming no section).
 */
export function sectionDiagnostics(
  name: string,
  prepared: PreparedPrompt,
  result: RenderResult,
): Diagnostic[] {
  const files = sectionFiles(name, prepared, result);
  const word = new RegExp(`(^|[^A-Za-z0-9_-])${name}([^A-Za-z0-9_-]|$)`);
  const text = result.sections.find((s) => s.name === name)?.text ?? "";
  return result.diagnostics.filter(
    (d) =>
      d.code === "user-text-left-out" ||
      (d.path !== undefined && (files.has(d.path) || printsPath(text, d.path))) ||
      word.test(d.message),
  );
}

/** Whether `text` prints `path` whole (not as the start of a longer name). */
function printsPath(text: string, path: string): boolean {
  if (path === "") return false;
  for (let at = text.indexOf(path); at !== -1; at = text.indexOf(path, at + 1))
    if (!/[\w./\\-]/.test(text[at + path.length] ?? " ")) return true;
  return false;
}

/** Classifies a section of this render; `reason` says it in a sentence when it is left out. */
export function sectionStatus(
  name: string,
  prepared: PreparedPrompt,
  result: RenderResult,
): { status: SectionStatus; reason?: string } {
  if (result.sections.some((s) => s.name === name)) return { status: "rendered" };
  const t = template(name, prepared);
  const extra = prepared.extraSections.some((e) => e.name === name);
  if (!t && !extra) return { status: "unknown" };
  const file = t?.source.path
    ? `file ${toPosix(t.source.path)}`
    : `from the ${t?.source.layer ?? "option"} layer`;
  const left = `, so it is left out`;
  if (t && !extra) {
    if (t.meta.base && prepared.customPrompt) {
      const source = prepared.customPrompt.source;
      const from = source.path ? `${source.layer} ${toPosix(source.path)}` : source.layer;
      return {
        status: "replaced",
        reason: `section "${name}" is a base section, replaced by the custom base prompt (${from})${left}`,
      };
    }
    if (!t.meta.enabled) {
      return {
        status: "disabled",
        reason: `section "${name}" is disabled (enabled: false; ${file})${left}`,
      };
    }
    const files = sectionFiles(name, prepared, result);
    if (
      result.diagnostics.some(
        (d) => d.level === "error" && d.path !== undefined && files.has(d.path),
      )
    ) {
      return {
        status: "failed",
        reason: `section "${name}" failed to render (see the error above) and no version below it took its place${left}`,
      };
    }
  }
  return {
    status: "empty",
    reason: `section "${name}" rendered empty with this data (${extra ? "given as an option" : file})${left}`,
  };
}
