import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_YAML_WARNINGS, parseFrontmatter } from "../../src/_frontmatter.js";

// yaml.parse hands its warnings to process.emitWarning, which Node prints on
// stderr outside any diagnostics (even under --json). Every YAML problem must
// come back as a located diagnostic instead, and nothing may reach the process.

const PATH = "/p/.pi/sections/team.md";

const spyWarnings = () => vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("YAML warnings and errors in frontmatter", () => {
  it("an unknown tag is a located warning; the value is read without the tag; nothing is emitted", () => {
    const emitted = spyWarnings();
    const text = "---\ndescription: !custom hi\norder: 5\n---\nBody\n";
    expect(parseFrontmatter(text, PATH)).toEqual({
      data: { description: "hi", order: 5 },
      body: "Body\n",
      bodyLine: 5,
      ok: true,
      keyLines: new Map([
        ["description", 2],
        ["order", 3],
      ]),
      diagnostics: [
        {
          level: "warning",
          code: "frontmatter-yaml-warning",
          message: "YAML frontmatter: Unresolved tag: !custom; the tag is ignored",
          path: PATH,
          line: 2,
          column: 14,
        },
      ],
    });
    expect(emitted).not.toHaveBeenCalled();
  });

  it("a key that is a list is a located warning, not a process warning", () => {
    const emitted = spyWarnings();
    const text = "---\norder: 5\n? [a, b]\n: 1\n---\nBody\n";
    expect(parseFrontmatter(text, PATH)).toEqual({
      data: { order: 5, "[ a, b ]": 1 },
      body: "Body\n",
      bodyLine: 6,
      ok: true,
      keyLines: new Map([["order", 2]]),
      diagnostics: [
        {
          level: "warning",
          code: "frontmatter-yaml-warning",
          message: "YAML frontmatter: a key that is a list or mapping is read as its text",
          path: PATH,
          line: 3,
          column: 3,
        },
      ],
    });
    expect(emitted).not.toHaveBeenCalled();
  });

  it(`at most ${MAX_YAML_WARNINGS} warnings per block, then a count of the rest`, () => {
    const emitted = spyWarnings();
    const keys = Array.from({ length: MAX_YAML_WARNINGS + 3 }, (_, i) => `k${i}: !t${i} v`);
    const { diagnostics } = parseFrontmatter(`---\n${keys.join("\n")}\n---\n`, PATH);
    expect(diagnostics.map((d) => [d.message, d.line])).toEqual([
      ...keys
        .slice(0, MAX_YAML_WARNINGS)
        .map((_, i) => [`YAML frontmatter: Unresolved tag: !t${i}; the tag is ignored`, i + 2]),
      ["YAML frontmatter: 3 more warnings not shown", undefined],
    ]);
    expect(emitted).not.toHaveBeenCalled();
  });

  it("a duplicate key is an error at the second occurrence, naming the key", () => {
    const text = "---\norder: 1\ntag: team\norder: 2\n---\nBody\n";
    expect(parseFrontmatter(text, PATH)).toEqual({
      data: {},
      body: "Body\n",
      bodyLine: 6,
      ok: false,
      keyLines: new Map(),
      diagnostics: [
        {
          level: "error",
          code: "frontmatter-yaml",
          message: 'invalid YAML frontmatter: key "order" appears twice',
          path: PATH,
          line: 4,
          column: 1,
        },
      ],
    });
  });

  it("duplicates in nested and flow mappings: the first one in the file is reported", () => {
    const text = "---\nouter:\n  x: 1\n  y: {a: 1, a: 2}\n  x: 3\nouter: 4\n---\n";
    expect(parseFrontmatter(text, PATH).diagnostics).toEqual([
      {
        level: "error",
        code: "frontmatter-yaml",
        message: 'invalid YAML frontmatter: key "a" appears twice',
        path: PATH,
        line: 4,
        column: 13,
      },
    ]);
  });

  it("keys are compared as YAML values, as yaml itself does: 1 and 1.0 are the same key", () => {
    expect(parseFrontmatter("---\n1: a\n1.0: b\n---\n", PATH).diagnostics).toEqual([
      {
        level: "error",
        code: "frontmatter-yaml",
        message: 'invalid YAML frontmatter: key "1" appears twice',
        path: PATH,
        line: 3,
        column: 1,
      },
    ]);
  });

  it("an alias to a missing anchor is a YAML error, not an unsupported engine", () => {
    const text = "---\na: &x 1\nb: *y\n---\nBody\n";
    expect(parseFrontmatter(text, PATH).diagnostics).toEqual([
      {
        level: "error",
        code: "frontmatter-yaml",
        message:
          "invalid YAML frontmatter: Unresolved alias (the anchor must be set before the alias): y",
        path: PATH,
        line: 2,
        column: 1,
      },
    ]);
  });
});
