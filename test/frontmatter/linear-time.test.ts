import { describe, expect, it } from "vitest";
import { MAX_FRONTMATTER_CHARS, parseFrontmatter } from "../../src/_frontmatter.js";

// Frontmatter is user text that loads for every section, partial, skill and
// prompt template. The split used to go through gray-matter, whose
// comment-stripping regex (/^\s*#[^\n]+/gm) is quadratic in a run of blank
// lines: 80,000 of them took 59 s. The split is now plain string searches,
// and a block over MAX_FRONTMATTER_CHARS is not parsed at all (YAML parsing
// is synchronous and would hold the event loop past the deadline).

const MB = 1 << 20;

/**
 * Each of these took from seconds to minutes before. 1000 ms is far above the
 * few milliseconds they take now, so a loaded CI machine does not fail the
 * test, and far below the quadratic times, so a regression does.
 */
const BOUND_MS = 1000;

const elapsed = (text: string) => {
  const started = performance.now();
  const parsed = parseFrontmatter(text, "/x.md");
  return { ms: performance.now() - started, parsed };
};

describe("frontmatter of adversarial shape, 1 MB each, parses in linear time", () => {
  it.each([
    ["blank lines in the block", `---\n${" \n".repeat(MB / 2)}a: 1\n---\nbody`],
    ["comment lines in the block", `---\n${"  #\n".repeat(MB / 4)}---\nbody`],
    ["near-closing lines", `---\na: 1\n${"--x\n".repeat(MB / 4)}---\nbody`],
    ["spaces after a fence-like line", `---\na: 1\n---${" ".repeat(MB)}x\n---\nbody`],
    ["no closing line", `---\n${" \n".repeat(MB / 2)}`],
    ["a huge body", `---\na: 1\n---\n${" \n".repeat(MB / 2)}`],
  ])("%s", (_, text) => {
    expect(elapsed(text).ms).toBeLessThan(BOUND_MS);
  });

  it(`a block over ${MAX_FRONTMATTER_CHARS / 1024} KB is not parsed: an error, and the body is kept`, () => {
    const lines = 209_715; // 5 characters each: 1 MB
    const text = `---\n${"k: v\n".repeat(lines)}---\nBody\n`;
    const { ms, parsed } = elapsed(text);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(parsed).toEqual({
      data: {},
      body: "Body\n",
      bodyLine: lines + 3,
      ok: false,
      keyLines: new Map(),
      diagnostics: [
        {
          level: "error",
          code: "frontmatter-too-large",
          message: "frontmatter is 1024 KB, over the 32 KB limit; not read",
          path: "/x.md",
          line: 1,
          column: 1,
        },
      ],
    });
  });
});
