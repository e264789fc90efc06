import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readRepoCapped, readRepoText, readRepoTextSync } from "../../src/repo-files/index.js";
import { sourceFiles } from "./_imports.js";

// Every read of a file of yours passes `own`, so a file of yours whose real path lies in a
// checkout is read through that checkout's door (`placeOwnFile`, review rev98a F1). The readers
// that forgot it read such a file unplaced: the synchronous loaders, your presets, pi's config,
// your rule files, `eject --diff --user` (fx100b, rev99a F3). The door's options now say a
// project's `reach`, or `own` written out (tsc refuses a call with neither: the lines below), and
// this fails when a caller in src/ writes `own: undefined` outright, as a file of yours read
// unplaced would, unless it is listed here with the reason its file is placed another way.

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const CALLS = new Set([
  "readRepoText",
  "readRepoTexts",
  "readRepoCapped",
  "readRepoBytes",
  "readRepoTextSync",
  "readRepoTextsSync",
]);

/** The calls that write `own: undefined`, and why their file needs no placing by the door. */
const PLACED_ELSEWHERE: Record<string, string> = {
  "gather/context/context-files.ts":
    "your AGENTS.md was placed just before (placeOwnFile, with the walk its imports take too)",
  "gather/context/imports.ts":
    "an import's way was walked when it was resolved (its scope's held walk): a kit's has its reach",
  "author/eject/eject-diff.ts": "the package's builtin section, no file of yours",
};

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
}

describe("every read of a file of yours passes `own`", () => {
  it("a read with neither a reach nor `own` does not compile (checked by tsc, npm test's type check)", () => {
    const neverCalled = () => {
      // @ts-expect-error a file of yours must say `own` (or a project's its reach)
      void readRepoText("x", {});
      // @ts-expect-error the same with a cap
      void readRepoCapped("x", { maxBytes: 1 });
      // @ts-expect-error the synchronous twin too
      readRepoTextSync("x", {});
    };
    expect(neverCalled).toBeTypeOf("function");
  });

  it("no caller in src/ outside the door writes `own: undefined` but the listed ones", () => {
    const unplaced: string[] = [];
    const seen = new Set<string>();
    let calls = 0;
    for (const path of sourceFiles(SRC)) {
      const rel = relative(SRC, path);
      if (rel.startsWith("repo-files/")) continue;
      const text = readFileSync(path, "utf8");
      if (![...CALLS].some((name) => text.includes(`${name}(`)) && !/\bown: undefined\b/.test(text))
        continue;
      const file = parse(path);
      const visit = (node: ts.Node): void => {
        const at = () => `${rel}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        if (
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          CALLS.has(node.expression.text)
        ) {
          calls++;
          if (node.arguments[1] === undefined) unplaced.push(`${at()}: no options`);
        }
        // Any options written so, a reader's or a helper's that passes them on (eject's readQuiet).
        if (ts.isObjectLiteralExpression(node)) {
          for (const p of node.properties) {
            if (p.name?.getText() !== "own" || !ts.isPropertyAssignment(p)) continue;
            if (p.initializer.getText() !== "undefined") continue;
            if (PLACED_ELSEWHERE[rel] === undefined) unplaced.push(`${at()}: ${p.getText()}`);
            else seen.add(rel);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    // The scan saw the callers (some 20 in src/): a rename of the readers must not empty it.
    expect(calls).toBeGreaterThan(15);
    expect(unplaced).toEqual([]);
    // A stale entry would let a new unplaced read in that file pass.
    expect([...seen].sort()).toEqual(Object.keys(PLACED_ELSEWHERE).sort());
  });
});
