import type { Diagnostic, DiagnosticLevel } from "../types.js";

/** Paints a diagnostic's level (see `colors.ts`); the identity when colours are off. */
export type LevelPainter = (level: DiagnosticLevel, text: string) => string;

const plain: LevelPainter = (_level, text) => text;

/** `warning path:3:5 [code] message`, one per line, in the order found. */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  paint: LevelPainter = plain,
): string {
  return diagnostics
    .map((d) => {
      const where = d.path
        ? ` ${d.path}${d.line !== undefined ? `:${d.line}${d.column !== undefined ? `:${d.column}` : ""}` : ""}`
        : "";
      return `${paint(d.level, d.level)}${where} [${d.code}] ${d.message}\n`;
    })
    .join("");
}

/** Left-aligned columns separated by two spaces. */
export function formatTable(rows: readonly (readonly string[])[]): string {
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
