import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** A regular expression literal in the source: where, its text, the compiled form. */
export interface Literal {
  where: string;
  text: string;
  regex: RegExp;
}

/** Every regular expression literal in the `.ts` files under `dir`. */
export function regexLiterals(dir: string): Literal[] {
  const out: Literal[] = [];
  const scan = (path: string) => {
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = (node as ts.RegularExpressionLiteral).text;
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        const close = text.lastIndexOf("/");
        out.push({
          where: `${path}:${line}`,
          text,
          regex: new RegExp(text.slice(1, close), text.slice(close + 1)),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  };
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith(".ts")) scan(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * The literal characters of a pattern in order, classes, groups' openers,
 * anchors and quantifiers left out: `/^\[(?:x|\\.)*\]:[ \t]*$/` gives `[x\]:`.
 * Prefixes of an adversarial line are taken from it.
 */
export function skeleton(pattern: string, optional = true, breaks = false): string {
  let out = "";
  let i = 0;
  // Where each open group started in `out`: one that may match nothing is dropped unless `optional`.
  const opened: number[] = [];
  while (i < pattern.length) {
    const c = pattern[i] as string;
    const before = out.length;
    const at = i;
    if (c === "[") {
      i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "\\") {
      const n = pattern[i + 1] ?? "";
      if (n === "u" && pattern[i + 2] === "{") i = pattern.indexOf("}", i) + 1;
      else if (n === "u") {
        out += String.fromCharCode(Number.parseInt(pattern.slice(i + 2, i + 6), 16));
        i += 6;
      } else if (n === "x") {
        out += String.fromCharCode(Number.parseInt(pattern.slice(i + 2, i + 4), 16));
        i += 4;
      } else if (n === "p" || n === "P") i = pattern.indexOf("}", i) + 1;
      else {
        if (!/[dDwWsSbBnrtfv0-9k]/.test(n)) out += n;
        else if (n === "n") out += "\n";
        else if (n === "t") out += "\t";
        i += 2;
      }
    } else if (c === "(") {
      opened.push(out.length);
      if (pattern[i + 1] !== "?") i++;
      else if (pattern[i + 2] !== "<") i += 3;
      else i = /[=!]/.test(pattern[i + 3] ?? "") ? i + 4 : pattern.indexOf(">", i) + 1;
    } else if (c === ")") {
      const from = opened.pop() ?? 0;
      if (!optional && /^(?:[*?]|\{0,)/.test(pattern.slice(i + 1))) out = out.slice(0, from);
      i++;
    } else if (c === "{" && /^\{\d*,?\d*\}/.test(pattern.slice(i))) {
      i = pattern.indexOf("}", i) + 1;
    } else {
      if (!"^$|()?*+.".includes(c)) out += c;
      i++;
    }
    // With `breaks`, a NUL between literal runs: anything but a literal character, or one a quantifier follows.
    if (breaks && (out.length === before || /^(?:[*+?]|\{\d)/.test(pattern.slice(i)))) {
      out = `${out.slice(0, before)}\0${out.slice(before)}\0`;
      if (at === i) i++;
    }
  }
  return out;
}

/** Whether a pattern repeats anything: one without `*`, `+` or `{m,}` cannot backtrack far. */
export function repeats(pattern: string): boolean {
  return /(?<!\\)[*+]|\{\d*,\d*\}/.test(pattern);
}

const TERMINATORS = ["\u2028x", "\rx", "\u2029", ""];

/** The runs of literal characters a pattern names, 2 to 24 long: ` doesn't match ` in `^(.+) doesn't match (.+)$`. */
export function literalRuns(pattern: string): string[] {
  const runs = skeleton(pattern, true, true)
    .split("\0")
    .filter((r) => r.length >= 2 && r.length <= 24);
  return [...new Set(runs)].slice(0, 8);
}

/** An adversarial line: a prefix, a run of one character (or of a literal run), a tail, a line terminator (or none). */
export type Shape = readonly [prefix: string, fill: string, tail: string, end: string];

/** The line of a shape with its run about `n` characters long. */
export const lineOf = ([p, c, x, t]: Shape, n: number): string =>
  p + c.repeat(Math.max(1, Math.round(n / c.length))) + x + t;

/** The adversarial shapes for one pattern: prefixes and tails from its skeleton. */
export function* shapes(pattern: string): Generator<Shape> {
  const sk = [...new Set(skeleton(pattern))].join("");
  const chars = [...new Set([..." a\t0", ...sk.slice(0, 8)])];
  const prefixes = new Set<string>([""]);
  for (const bones of [skeleton(pattern), skeleton(pattern, false)]) {
    for (let len = 1; len <= 3; len++) {
      for (let i = 0; i + len <= bones.length && prefixes.size < 120; i++) {
        const sub = bones.slice(i, i + len);
        prefixes.add(sub);
        prefixes.add(` ${sub}`);
        prefixes.add(`a${sub}`);
      }
    }
  }
  const tails = ["", ...sk.slice(0, 8)];
  for (const c of chars) {
    for (const p of prefixes)
      for (const x of tails) for (const t of TERMINATORS) yield [p, c, x, t];
  }
  for (const run of literalRuns(pattern)) {
    for (const x of tails) for (const t of TERMINATORS) yield ["", run, x, t];
  }
}

/** ms one exec of `regex` on `text` takes, the least of `tries`. */
export function execMs(regex: RegExp, text: string, tries = 1): number {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < tries; k++) {
    regex.lastIndex = 0;
    const t = performance.now();
    regex.exec(text);
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/**
 * The shapes on which `regex` is super-linear: each line of a first pass at `n` that takes
 * over `floorMs` is run again eight times as long; the ones over `ratio` times as slow (a
 * linear match is about 8, a quadratic one 64).
 */
export function superLinear(
  regex: RegExp,
  n = 2000,
  floorMs = 0.5,
  ratio = 20,
): { line: string; small: number; big: number }[] {
  const found: { line: string; small: number; big: number }[] = [];
  const source = regex.source;
  if (!repeats(source)) return found;
  for (const shape of shapes(source)) {
    // A run of a literal run is read four times as long: its quadratic is over its count.
    const size = shape[1].length > 1 ? n * 4 : n;
    const line = lineOf(shape, size);
    if (execMs(regex, line) <= floorMs) continue;
    const small = execMs(regex, line, 3);
    if (small <= floorMs) continue;
    const big = execMs(regex, lineOf(shape, size * 8), 2);
    if (big > small * ratio) found.push({ line: JSON.stringify(line.slice(0, 12)), small, big });
    if (found.length > 0) break;
  }
  return found;
}
