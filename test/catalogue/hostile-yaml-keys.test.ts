import { describe, expect, it } from "vitest";
import { parseYaml } from "../../src/_yaml.js";

// A preset (.pi/agents/*.yaml) may be 64 KiB, and the one a render uses is
// parsed synchronously before the render's deadline is heard. yaml's own
// duplicate-key check compares each key with every earlier one: 8,000 short
// distinct keys parsed in 0.7-1.4 s with it, 0.25-0.55 s without (a loaded
// machine). Keys are checked with one set a mapping, in the YAML front end,
// for every YAML a repository holds; a duplicate stays a located error.

describe("hostile repository: YAML keys are checked in linear time", () => {
  it("a key found twice is still an error on the document, at the second", () => {
    const parsed = parseYaml("a: 1\nb: {c: 1, c: 2}\na: 3\n");
    if (!parsed.ok) throw new Error("expected a parse");
    expect(
      parsed.doc.errors.map((e) => [e.code, e.message, parsed.lines.linePos(e.pos[0])]),
    ).toEqual([["DUPLICATE_KEY", 'key "c" appears twice', { line: 2, col: 11 }]]);
  });

  it("a caller that checks keys itself gets no duplicate error", () => {
    const parsed = parseYaml("a: 1\na: 2\n", { uniqueKeys: false });
    expect(parsed.ok && parsed.doc.errors).toEqual([]);
  });
});
