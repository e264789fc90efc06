import { describe, expect, it } from "vitest";
import {
  capDepth,
  capEntries,
  linesFromText,
  parseTree,
  renderTree,
} from "../../src/budget/_tree.js";
import { treeLines } from "./_world.js";

const text = (...xs: string[]) => xs.join("\n");

describe("the tree as the budget re-lays it out", () => {
  it("reads back exactly the lines it was built from, markers included", () => {
    const lines = treeLines(
      "p/",
      "  a/  2026-01-01 00:00",
      "    x  1B  2026-01-01 00:00",
      "    … 4 more",
      "    y  1B  2026-01-01 00:00",
      "  b  1B  2026-01-01 00:00",
      "… deeper entries not shown (line limit)",
    );
    const model = parseTree(lines);
    expect(renderTree(model)).toBe(lines.map((l) => l.text).join("\n"));
    expect(model.markers).toEqual(["… deeper entries not shown (line limit)"]);
    expect(model.root.children[0]?.children[1]).toEqual({
      text: "    … 4 more",
      depth: 2,
      more: 4,
      children: [],
    });
  });

  it("a folder's own '… K more' adds to what a smaller cap hides", () => {
    const model = parseTree(treeLines("p/", "  a", "  b", "  c", "  … 9 more", "  z"));
    expect(renderTree(capEntries(model, 2))).toBe(text("p/", "  a", "  … 11 more", "  z"));
    expect(renderTree(capEntries(model, 1))).toBe(text("p/", "  … 12 more", "  z"));
  });

  it("a folder read only in part ('… at least K more') stays a floor when a smaller cap adds to it", () => {
    const model = parseTree(treeLines("p/", "  a", "  b", "  c", "  … at least 9 more", "  z"));
    expect(model.root.children[3]).toMatchObject({ more: 9, atLeast: true });
    expect(renderTree(model)).toBe(text("p/", "  a", "  b", "  c", "  … at least 9 more", "  z"));
    expect(renderTree(capEntries(model, 2))).toBe(text("p/", "  a", "  … at least 11 more", "  z"));
  });

  it("a file whose name reads like '… 3 more' is an entry, not a count (an entry line ends with its time)", () => {
    const model = parseTree(treeLines("p/", "  … 3 more  1B  2026-01-01 00:00"));
    expect(model.root.children[0]?.more).toBeUndefined();
  });

  it("capDepth keeps the first levels and leaves the markers", () => {
    const model = parseTree(treeLines("p/", "  a/", "    b/", "      c", "  d", "… marker"));
    expect(renderTree(capDepth(model, 2))).toBe(text("p/", "  a/", "    b/", "  d", "… marker"));
    expect(renderTree(capDepth(model, 1), ["… extra"])).toBe(
      text("p/", "  a/", "  d", "… marker", "… extra"),
    );
  });

  it("a line deeper than one below the line above it (the layout dropped the ones between) hangs under that line", () => {
    const model = parseTree([
      { depth: 0, text: "p/" },
      { depth: 1, text: "  a/" },
      { depth: 3, text: "      deep" },
    ]);
    expect(model.root.children[0]?.children[0]?.depth).toBe(2);
  });

  it("without depths, two spaces of indentation are a level; an unindented line after the root is a marker", () => {
    expect(linesFromText(text("p/", "  a/", "    x", "… marker"))).toEqual([
      { depth: 0, text: "p/" },
      { depth: 1, text: "  a/" },
      { depth: 2, text: "    x" },
      { depth: 0, text: "… marker" },
    ]);
  });
});
