import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { optionsReference } from "../../src/options/reference.js";
import { OPTIONS } from "../../src/options/registry.js";

const PAGE = join(import.meta.dirname, "../../docs/options.md");
const START = "<!-- options-reference:start -->\n";
const END = "<!-- options-reference:end -->";

/** The page's text between the markers, and the page with `part` put there instead. */
function between(page: string) {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a === -1 || b < a) throw new Error("docs/options.md has lost its options-reference markers");
  return {
    part: page.slice(a + START.length, b),
    with: (part: string) => page.slice(0, a + START.length) + part + page.slice(b),
  };
}

describe("docs/options.md", () => {
  it("holds the reference generated from the option registry between its markers", () => {
    const page = readFileSync(PAGE, "utf8");
    const generated = optionsReference();
    if (process.env.UPDATE_OPTIONS_REFERENCE) writeFileSync(PAGE, between(page).with(generated));
    expect(
      between(readFileSync(PAGE, "utf8")).part,
      "stale: regenerate with UPDATE_OPTIONS_REFERENCE=1 npx vitest run test/options/reference.test.ts",
    ).toBe(generated);
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
