import { describe, expect, it } from "vitest";
import { rulesFixture, trace } from "./_helpers.js";

const pick = (r: { name: string; activation: string; globs: string[]; content: string }) => ({
  name: r.name,
  activation: r.activation,
  globs: r.globs,
  content: r.content,
});

describe("rule frontmatter that is not YAML", () => {
  it("`globs: *.ts` (a YAML alias) is read line by line: split on commas, unquoted, other keys kept, one located warning", async () => {
    const dir = rulesFixture("not-yaml-frontmatter");
    const out = await trace(dir);
    const rules = `${dir}/.cursor/rules`;
    expect(out.rules.map(pick)).toEqual([
      {
        name: "scripts",
        activation: "glob",
        globs: ["*.py", "scripts/*.sh"],
        content: "Scripts are POSIX.",
      },
      {
        name: "ts",
        activation: "glob",
        globs: ["*.ts", "src/**/*.tsx"],
        content: "Use strict types.",
      },
    ]);
    expect(out.rules[1]?.description).toBe("TypeScript files");
    expect(out.diagnostics.map((d) => [d.code, d.path, d.line])).toEqual([
      // Where YAML places the error: the key whose value it cannot read.
      ["rule-frontmatter-not-yaml", `${rules}/scripts.mdc`, 2],
      ["rule-frontmatter-not-yaml", `${rules}/ts.mdc`, 3],
    ]);
  });

  it('`alwaysApply: "true"` and `yes` are read as true with a warning, `True` silently, an unknown word as false', async () => {
    const dir = rulesFixture("flag-spellings");
    const out = await trace(dir);
    expect(out.rules.map((r) => [r.name, r.activation])).toEqual([
      ["a-quoted", "always"],
      ["b-yes", "always"],
      ["c-capital", "always"],
      ["d-unknown", "model"],
    ]);
    const rules = `${dir}/.cursor/rules`;
    expect(out.diagnostics).toEqual([
      {
        level: "warning",
        code: "rule-flag-ambiguous",
        message:
          'alwaysApply: "true" is text, not a YAML boolean; read as true (write alwaysApply: true)',
        path: `${rules}/a-quoted.mdc`,
        line: 2,
        column: 1,
      },
      {
        level: "warning",
        code: "rule-flag-ambiguous",
        message:
          'alwaysApply: "yes" is text, not a YAML boolean; read as true (write alwaysApply: true)',
        path: `${rules}/b-yes.mdc`,
        line: 2,
        column: 1,
      },
      {
        level: "warning",
        code: "rule-flag-ambiguous",
        message: 'alwaysApply: "sometimes" is not true or false; read as false',
        path: `${rules}/d-unknown.mdc`,
        line: 2,
        column: 1,
      },
    ]);
  });

  it("a BOM and CRLF line endings are handled like section files", async () => {
    const dir = rulesFixture("crlf-bom");
    const out = await trace(dir);
    expect(out.rules).toEqual([
      {
        name: "rust",
        path: `${dir}/.cursor/rules/rust.mdc`,
        content: "Use clippy.\n\nNo unsafe.",
        activation: "glob",
        globs: ["*.rs"],
        description: "Rust",
        source: "cursor",
        layer: "project",
      },
    ]);
    expect(out.diagnostics).toEqual([]);
  });

  it("a --- block after a comment is not frontmatter: the file is text and a located warning says why", async () => {
    const dir = rulesFixture("comment-before-frontmatter");
    const out = await trace(dir);
    expect(out.rules.map((r) => [r.name, r.activation])).toEqual([["late", "manual"]]);
    expect(out.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["rule-frontmatter-not-first", 2],
    ]);
  });
});
