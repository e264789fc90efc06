import { describe, expect, it } from "vitest";
import { optionsReference } from "../../src/options/reference.js";
import { OPTIONS } from "../../src/options/registry.js";
import { expectGenerated } from "../docs/_generated.js";

describe("docs/options.md", () => {
  it("holds the reference generated from the option registry between its markers", () => {
    expectGenerated("docs/options.md", "options-reference", optionsReference(), {
      update: "UPDATE_OPTIONS_REFERENCE",
      test: "test/options/reference.test.ts",
    });
  });

  it("has one row per option, flags and keys as the registry declares them", () => {
    const rows = optionsReference()
      .split("\n")
      .filter((l) => l.startsWith("| `"));
    expect(rows.map((r) => /^\| `(\w+)`/.exec(r)?.[1])).toEqual(Object.keys(OPTIONS));
    expect(rows.find((r) => r.startsWith("| `treeDepth`"))).toBe(
      "| `treeDepth` | 1 to 8 | 3 | `--tree-depth` | `tree-depth` |  |  | Levels of entries the workspace tree shows below each root (the line cap still holds). |",
    );
  });
});
