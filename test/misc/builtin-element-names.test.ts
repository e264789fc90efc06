import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  builtinElementNames,
  builtinElementNamesModule,
} from "../../src/build/builtin-element-names.js";

// src/_builtin-element-names.ts is generated from prompts/ (review rev91a F1): after a change to
// the builtin templates, `npm run build && node dist/src/build/write-builtin-element-names.js`.
describe("src/_builtin-element-names.ts", () => {
  it("is current with prompts/", async () => {
    const written = readFileSync(
      new URL("../../src/_builtin-element-names.ts", import.meta.url),
      "utf8",
    );
    const names = await builtinElementNames();
    expect(names).toContain("rules");
    expect(names).toContain("available_skills");
    expect(written).toBe(builtinElementNamesModule(names));
  });
});
