import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/_frontmatter.js";
import { parseYaml } from "../../src/_yaml.js";

// A frontmatter block may be 32 KB, and each error yaml finds in it was
// quoted with the text around it, a scan of the whole text per error. A
// 31 KB block of tags (`k: !a !a !a …`, one error each past the first) took
// 4 s to parse, and 16 rule files of it with 16 of keys held a render at
// --deadline 1000 for 25 s, untrusted. Tags are counted before the parse (64 at
// most), and errors are located by offset, never quoted (stray brackets and
// bad escapes: 15,000 errors in a block).

/** Far above the lexer's pass over 31 KB on a loaded machine, far below the parse it spares. */
const BOUND_MS = 1500;

const fill = (unit: string) => unit.repeat(Math.floor(31_000 / unit.length));

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe("hostile repository: YAML with thousands of errors", () => {
  it("a block of tags is refused before the parse, located at the 65th", () => {
    const { value, ms } = timed(() => parseYaml(`k: ${fill("!a ")}x`));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toEqual({
      ok: false,
      problem: { message: "more than 64 tags (!name)", line: 1, column: 196 },
    });
  });

  it("bad escapes: every error kept, located, none quoted", () => {
    const value = parseYaml(`k: "${fill("\\q")}"`, { maxChars: 32_768 });
    if (!value.ok) throw new Error("expected a parse");
    expect(value.doc.errors.length).toBe(15_500);
    expect(value.doc.errors[0]?.message).not.toContain("\n");
  });

  it("stray brackets: refused before the parse, at the first (each one is an error)", () => {
    const { value, ms } = timed(() => parseYaml(`k: 1\n${fill("]\n")}`, { maxChars: 32_768 }));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toEqual({
      ok: false,
      problem: { message: "a `]` that closes no bracket", line: 2, column: 1 },
    });
  });

  it("a frontmatter error and warning are still located at their lines", () => {
    const bad = parseFrontmatter("---\ndescription: ok\norder: ]\n---\nBody.\n", "/p/s.md");
    expect(bad.ok).toBe(false);
    expect(bad.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ["frontmatter-yaml", 3, 8],
    ]);
    const warned = parseFrontmatter("---\ndescription: ok\norder: !odd 3\n---\nBody.\n", "/p/s.md");
    expect(warned.diagnostics.map((d) => [d.line, d.column])).toEqual([[3, 8]]);
  });
});
