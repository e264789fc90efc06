import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/_frontmatter.js";

/** Where the first diagnostic of `block` (a frontmatter body) is, as `line:column`. */
const at = (block: string) => {
  const [d] = parseFrontmatter(`---\n${block}\n---\nBody\n`, "/x.md").diagnostics;
  return `${d?.line}:${d?.column} ${d?.message}`;
};

describe("a bracket or quote never closed is reported where it opens, not where YAML gave up", () => {
  it("flow sequences and maps, nested ones at the innermost, quotes of both kinds", () => {
    const seq =
      "invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]";
    const map =
      "invalid YAML frontmatter: Flow map in block collection must be sufficiently indented and end with a }";
    expect([
      at("order: [30\ntag: rules"),
      at("order: [30"),
      at("tag: rules\nx: {a: 1\ny: 2"),
      at("x: {a: [1, 2\ny: 2"),
      at('description: "abc\norder: 2'),
      at("description: 'abc\norder: 2"),
    ]).toEqual([
      `2:8 ${seq}`,
      `2:8 ${seq}`,
      `3:4 ${map}`,
      `2:8 ${seq}`,
      '2:14 invalid YAML frontmatter: Missing closing "quote',
      "2:14 invalid YAML frontmatter: Missing closing 'quote",
    ]);
  });

  it("other errors keep yaml's own place", () => {
    expect(at("  order: 3\nx: 1")).toBe(
      "3:1 invalid YAML frontmatter: Unexpected scalar at node end",
    );
  });
});
