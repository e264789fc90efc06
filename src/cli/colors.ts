import type { DiagnosticLevel } from "../types.js";
import type { LevelPainter } from "./format.js";
import { type CliIo, colorsOn, paletteMark } from "./io.js";

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
 * but the empty string (https://no-color.org). Each code is marked
 * ({@link paletteMark}): the terminal gets only the codes painted here.
 */
export function paletteFor(io: Pick<CliIo, "isTTY" | "env">): Palette {
  const c = colorsOn(io) ? markedPalette() : plain;
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

const code = (n: number) => `${paletteMark()}\u001b[${n}m`;

/**
 * Paints between `open` and `close`; a close met inside (a painted part)
 * becomes `again`, so the colour goes on after it, as picocolors does.
 */
function painter(open: number, close: number, again = code(open)) {
  const [o, c] = [code(open), code(close)];
  return (text: string) => `${o}${text.replaceAll(c, again)}${c}`;
}

type Painters = Record<
  "red" | "green" | "yellow" | "cyan" | "bold" | "dim",
  (text: string) => string
>;

let marked: Painters | undefined;

/** The painters, made when colours are first on (their codes carry the process's mark). */
function markedPalette(): Painters {
  marked ??= {
    red: painter(31, 39),
    green: painter(32, 39),
    yellow: painter(33, 39),
    cyan: painter(36, 39),
    bold: painter(1, 22, code(22) + code(1)),
    dim: painter(2, 22, code(22) + code(2)),
  };
  return marked;
}

const same = (text: string) => text;
const plain: Painters = {
  red: same,
  green: same,
  yellow: same,
  cyan: same,
  bold: same,
  dim: same,
};
