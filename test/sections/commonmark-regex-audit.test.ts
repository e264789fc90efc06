import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The closers' check hands a repository's text to commonmark, whose regular expressions run
// before or outside the meter (src/sections/_commonmark.ts): three review rounds found one slow
// (rev67c: link titles, blank runs, backticks; rev68e F1: OPENTAG's unquoted value against its
// Unicode `\s`), each modelled in `regexWork`. Every expression of commonmark 0.31.2's `lib/`
// was audited for backtracking (`\s` against an ASCII-only class among them: docs/trust.md,
// rev68e F1). This pins what was audited: a commonmark whose expressions differ fails here, and
// its expressions must be audited again (and this list's digest renewed) before it is used.
const lib = join(dirname(createRequire(import.meta.url).resolve("commonmark")), "..", "lib");

/** Each regular expression literal and `new RegExp(…)` of `file`, and each string constant (common.js builds its expressions from them). */
function expressions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) found.push(node.text);
    else if (ts.isNewExpression(node) && node.expression.getText(source) === "RegExp")
      found.push(node.getText(source));
    else if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      ts.isStringLiteral(node.initializer)
    )
      found.push(`${node.name.getText(source)}=${node.initializer.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith(".js")
        ? [join(dir, entry.name)]
        : [],
  );

describe("commonmark's regular expressions are the audited ones", () => {
  it("their digest is the one audited (rev68e F1)", () => {
    const all = files(lib)
      .sort()
      .flatMap((file) => expressions(file).map((e) => `${file.slice(lib.length)}: ${e}`));
    expect(all.length).toBeGreaterThan(40);
    const digest = createHash("sha256").update(all.join("\n")).digest("hex");
    expect(digest).toBe("9036b79cb31b82d842c66e7b333ef89841483494de49af716822c1da6b0308aa");
  });
});
