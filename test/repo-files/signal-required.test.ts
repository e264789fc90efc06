import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { PrivatePathsOptions, ReachOptions } from "../../src/repo-files/index.js";
import type { folderReaches } from "../../src/repo-files/reach.js";
import { sourceFiles } from "./_imports.js";

// Every reader of a repository's files hears a deadline: the signal of a reach and of a
// private-path checker is a required field, so a new caller cannot forget it (fx90e's known limit:
// it was optional, and a file named into an untrusted project was checked past the render's
// deadline, fx92d). A caller with no deadline of its own passes `NO_DEADLINE`, by name. This fails
// when the field becomes optional again (the types, and their declarations as written) or when a
// caller passes `undefined` (or casts its way past the type).

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const CALLS = new Set(["projectReach", "privatePaths", "folderReaches"]);

// Checked by tsc (npm test's type check): each field is exactly AbortSignal, never optional.
expectTypeOf<ReachOptions["signal"]>().toEqualTypeOf<AbortSignal>();
expectTypeOf<PrivatePathsOptions["signal"]>().toEqualTypeOf<AbortSignal>();
expectTypeOf<Parameters<typeof folderReaches>[0]["signal"]>().toEqualTypeOf<AbortSignal>();

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
}

/** The `signal` member of an interface or type literal named `name` (or of `fn`'s first parameter). */
function signalMembers(file: ts.SourceFile): Map<string, ts.PropertySignature> {
  const found = new Map<string, ts.PropertySignature>();
  const visit = (node: ts.Node, owner: string | undefined): void => {
    let here = owner;
    if (ts.isInterfaceDeclaration(node)) here = node.name.text;
    if (ts.isFunctionDeclaration(node) && node.name) here = node.name.text;
    if (
      ts.isPropertySignature(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === "signal" &&
      here !== undefined
    ) {
      found.set(here, node);
    }
    ts.forEachChild(node, (child) => visit(child, here));
  };
  visit(file, undefined);
  return found;
}

/** What is wrong with a `signal` initializer at a call: undefined, or a cast past the type. */
function badSignal(init: ts.Expression): string | undefined {
  const text = init.getText();
  if (text === "undefined" || /^void\b/.test(text)) return "passes undefined";
  if (ts.isAsExpression(init) || ts.isTypeAssertionExpression(init)) return "casts it";
  if (ts.isNonNullExpression(init)) return "asserts it non-null";
  return undefined;
}

describe("a reach's and a private-path checker's signal is required", () => {
  it("declares the field without `?` or `undefined`, and privatePaths' options have no default", () => {
    const declared = [
      ...signalMembers(parse(join(SRC, "repo-files/reach.ts"))).entries(),
      ...signalMembers(parse(join(SRC, "repo-files/private-paths.ts"))).entries(),
    ].filter(([owner]) => ["ReachOptions", "PrivatePathsOptions", "folderReaches"].includes(owner));
    expect(declared.map(([owner]) => owner).sort()).toEqual([
      "PrivatePathsOptions",
      "ReachOptions",
      "folderReaches",
    ]);
    for (const [owner, member] of declared) {
      expect(`${owner}: ${member.getText().replace(/\s+/g, " ")}`).toBe(
        `${owner}: signal: AbortSignal;`,
      );
    }
    const source = readFileSync(join(SRC, "repo-files/private-paths.ts"), "utf8");
    expect(source).toMatch(
      /export function privatePaths\(root: string, options: PrivatePathsOptions\)/,
    );
  });

  it("no caller in src/ passes undefined as the signal", () => {
    const bad: string[] = [];
    let calls = 0;
    for (const path of sourceFiles(SRC)) {
      // Only the files that name one of them are parsed (a parse of all of src/ takes seconds).
      const text = readFileSync(path, "utf8");
      if (![...CALLS].some((name) => text.includes(`${name}(`))) continue;
      const file = parse(path);
      const visit = (node: ts.Node): void => {
        if (
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          CALLS.has(node.expression.text)
        ) {
          calls++;
          const options = node.arguments[node.expression.text === "privatePaths" ? 1 : 0];
          const at = `${relative(SRC, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          if (options === undefined) bad.push(`${at}: no options`);
          else if (ts.isObjectLiteralExpression(options)) {
            for (const p of options.properties) {
              if (p.name?.getText() !== "signal") continue;
              const why = ts.isPropertyAssignment(p) ? badSignal(p.initializer) : undefined;
              if (why) bad.push(`${at}: ${why} (${p.getText()})`);
            }
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    // The scan saw the callers (some 30 in src/): a rename of the functions must not empty it.
    expect(calls).toBeGreaterThan(20);
    expect(bad).toEqual([]);
  });
});
