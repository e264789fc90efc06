import { describe, expect, it } from "vitest";
import { docPages, links, readDoc } from "./_docs.js";

// The README is the entry page: what sysprompt is, the Quickstart, a short
// walkthrough and the way into docs/. The manual lives in docs/, one page per
// task; a README that grows back into a manual fails here.

const MAX_README_LINES = 300;

describe("the README", () => {
  it(`is at most ${MAX_README_LINES} lines`, () => {
    expect(readDoc("README.md").split("\n").length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it("links to every page under docs/", () => {
    const linked = new Set(links(readDoc("README.md")).map((t) => t.split("#")[0]));
    expect(docPages().filter((p) => p !== "README.md" && !linked.has(p))).toEqual([]);
  });

  it("walks through overriding one section before it sends the reader to docs/", () => {
    const text = readDoc("README.md");
    const walkthrough = text.indexOf("\n## Override one section in five minutes\n");
    expect(walkthrough).toBeGreaterThan(-1);
    expect(walkthrough).toBeLessThan(text.indexOf("\n## Documentation\n"));
  });
});
