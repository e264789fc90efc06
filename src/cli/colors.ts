import pc from "picocolors";
import type { DiagnosticLevel } from "../types.js";
import type { LevelPainter } from "./format.js";
import { type CliIo, colorsOn } from "./io.js";

/** The colours a command may use; every one is the identity when colours are off. */
export interface Palette {
  red: (text: string) => string;
  yellow: (text: string) => string;
  green: (text: string) => string;
  cyan: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
  /** A diagnostic's level: error red, warning yellow, info cyan. */
  level: LevelPainter;
}

/**
 * Colours only for a terminal, and never when `NO_COLOR` is set to anything
 * but the empty string (https://no-color.org). Only commands that print a
 * report import this file, so `render` never loads picocolors.
 */
export function paletteFor(io: Pick<CliIo, "isTTY" | "env">): Palette {
  const c = pc.createColors(colorsOn(io));
  const byLevel: Record<DiagnosticLevel, (text: string) => string> = {
    error: c.red,
    warning: c.yellow,
    info: c.cyan,
  };
  return {
    red: c.red,
    yellow: c.yellow,
    green: c.green,
    cyan: c.cyan,
    dim: c.dim,
    bold: c.bold,
    level: (level, text) => byLevel[level](text),
  };
}
