import { escapeInline, terminalName } from "../_text.js";
import type { Diagnostic, DiagnosticLevel } from "../types.js";

/** Paints a diagnostic's level (see `colors.ts`); the identity when colours are off. */
export type LevelPainter = (level: DiagnosticLevel, text: string) => string;

const plain: LevelPainter = (_level, text) => text;

/**
 * `warning path:3:5 [code] message`, one per line, in the order found. Path,
 * code and message are written with their control characters (line feeds
 * too) as visible escapes: a message may quote a repository's text, and a
 * file name may hold anything but `/`. Path and message are written as a
 * listing's names are ({@link escapeSpacing}: a TAB as `\u0009`), so a
 * project's file name cannot push or forge the line's columns (review rev55a F1).
 * Both are raw (a diagnostic holds names as they are), so their literal `\u`
 * is marked here, once ({@link terminalName}: review rev101e F4).
 */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  paint: LevelPainter = plain,
): string {
  return diagnostics
    .map((d) => {
      const where = d.path
        ? ` ${terminalName(d.path)}${d.line !== undefined ? `:${d.line}${d.column !== undefined ? `:${d.column}` : ""}` : ""}`
        : "";
      return `${paint(d.level, d.level)}${where} [${escapeInline(d.code)}] ${terminalName(d.message)}\n`;
    })
    .join("");
}

/** Left-aligned columns separated by two spaces; control characters in a cell are escaped. */
export function formatTable(table: readonly (readonly string[])[]): string {
  const rows = table.map((row) => row.map(escapeInline));
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join("");
}
