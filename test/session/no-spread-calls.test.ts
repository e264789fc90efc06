import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { maxOf, minOf, pushAll } from "../../src/_arrays.js";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/**
 * Calls that pass a list's items as arguments: V8's stack holds ~120,000 of them, so a list a
 * repository sizes crashes the render (rev50b F7: a rules file of 130,000 lines; F8: a walk's
 * 133,000 diagnostics). Use pushAll / maxOf / minOf from src/_arrays.ts.
 */
const SPREAD_CALLS: Record<string, RegExp> = {
  "push/unshift/splice with a spread": /\.(?:push|unshift|splice)\(\s*(?:[^(){}[\];]*,\s*)?\.\.\./g,
  "Math.max/min with a spread": /\bMath\.(?:max|min)\(\s*(?:[^(){}[\];]*,\s*)?\.\.\./g,
  "fromCharCode/fromCodePoint with a spread":
    /\.from(?:CharCode|CodePoint)\(\s*(?:[^(){}[\];]*,\s*)?\.\.\./g,
  "Function.prototype.apply": /\.apply\(/g,
};

/** Allowed `.apply(` calls, by file, with how many and why each list is provably small. */
const ALLOWED_APPLY: Record<string, number> = {
  // A Handlebars helper's own `...args`, passed on as they came: they were call arguments
  // already (Handlebars' compiled template called the wrapper with them), so never more.
  "engine/_budget.ts": 2,
  "engine/engine.ts": 1,
  // A budget step's `apply(state, level)` method (the fit and its all-steps test render),
  // not Function.prototype.apply.
  "budget/fit.ts": 2,
};

function sourceFiles(path: string): string[] {
  if (path.endsWith(".ts")) return [path];
  if (!readdirSync(path, { withFileTypes: true })) return [];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith(".ts"))
    .flatMap((e) => sourceFiles(join(path, e.name)));
}

/** The text without comments (line and block), so a comment may name the pattern. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

describe("no list is passed as call arguments in src/ (rev50b F7, F8)", () => {
  it("no push(...x), Math.max(...x), fromCharCode(...x), and .apply( only where allowed", () => {
    const found: string[] = [];
    const applies: Record<string, number> = {};
    for (const file of sourceFiles(SRC)) {
      const name = relative(SRC, file).split("\\").join("/");
      const text = code(readFileSync(file, "utf8"));
      for (const [kind, pattern] of Object.entries(SPREAD_CALLS)) {
        const count = [...text.matchAll(pattern)].length;
        if (count === 0) continue;
        if (kind === "Function.prototype.apply") applies[name] = count;
        else found.push(`${name}: ${kind}`);
      }
    }
    expect(found).toEqual([]);
    expect(applies).toEqual(ALLOWED_APPLY);
  });

  it("the patterns catch what they name", () => {
    const caught = (text: string) =>
      Object.values(SPREAD_CALLS).some((p) => [...text.matchAll(p)].length > 0);
    expect(
      [
        "out.push(...lines);",
        "out.push(\n  ...a.filter((d) => d),\n  b,\n);",
        "out.push(a, ...b);",
        "Math.max(0, ...widths)",
        "String.fromCharCode(...codes)",
        "fn.apply(this, list)",
        "out.push(a, b);",
        "Math.max(a, b)",
      ].map(caught),
    ).toEqual([true, true, true, true, true, true, false, false]);
  });
});

describe("src/_arrays.ts", () => {
  it("pushAll appends 300,000 items (past the ~120,000 arguments a call can take)", () => {
    const many = Array.from({ length: 300_000 }, (_, i) => i);
    const into = [-1];
    expect(pushAll(into, many, [7])).toBe(into);
    expect([into.length, into[0], into[1], into.at(-2), into.at(-1)]).toEqual([
      300_002, -1, 0, 299_999, 7,
    ]);
  });

  it("maxOf and minOf take any count, and say `empty` for none", () => {
    const many = Array.from({ length: 300_000 }, (_, i) => i);
    expect([maxOf(many), minOf(many), maxOf([], 0), minOf([]), maxOf([3], 5)]).toEqual([
      299_999,
      0,
      0,
      Number.POSITIVE_INFINITY,
      5,
    ]);
  });
});
