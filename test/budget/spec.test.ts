import { describe, expect, it } from "vitest";
import { readSectionMeta } from "../../src/sections/meta.js";

const SHAPE =
  "false or { priority: <number>, steps: [<step>, …] } with steps among tree-lines, tree-depth, agents-md, skill-descriptions, skill-list, context-files, rule-descriptions, always-rules, appended-files";

const read = (shrink: unknown) => readSectionMeta({ shrink }, "/p/sections/x.md");

describe("the shrink: frontmatter key", () => {
  it("a priority and known steps, in the order given", () => {
    expect(read({ priority: 5, steps: ["skill-list", "tree-lines"] })).toEqual({
      meta: { shrink: { priority: 5, steps: ["skill-list", "tree-lines"] } },
      diagnostics: [],
    });
  });

  it("false: never shrink (over a lower version that did)", () => {
    expect(read(false)).toEqual({ meta: { shrink: null }, diagnostics: [] });
  });

  it.each([
    ["tree-lines", ""],
    [{ steps: ["tree-lines"] }, " (priority must be a number)"],
    [{ priority: "1", steps: ["tree-lines"] }, " (priority must be a number)"],
    [{ priority: 1 }, " (steps must be a non-empty list)"],
    [{ priority: 1, steps: [] }, " (steps must be a non-empty list)"],
    [{ priority: 1, steps: ["tree"] }, ' (unknown step "tree")'],
    [{ priority: 1, steps: ["tree-lines", "tree-lines"] }, " (each step at most once)"],
    [{ priority: 1, steps: ["tree-lines"], order: 2 }, ' (unknown key "order")'],
  ])("%j is dropped with a warning%s", (value, why) => {
    expect(read(value)).toEqual({
      meta: {},
      diagnostics: [
        {
          level: "warning",
          code: "section-meta",
          message: `frontmatter "shrink" must be ${SHAPE}${why}; ignored`,
          path: "/p/sections/x.md",
        },
      ],
    });
  });
});
