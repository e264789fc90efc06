import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev71d F3: `--guideline $'\u200b'` (U+2060, U+00AD the same) exited 0 and wrote an
// invisible rule line, while `--model` with the same value exited 2: the guideline's blank test was
// `trim()`, which keeps format characters. It is now `showsNothing`, the one blank rule `--model` uses.

function project() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
  return root;
}

describe("hostile-cli-blank-guideline-invisible: a --guideline of invisible characters is blank", () => {
  it.each(["\u200b", "\u2060", "\u00ad", " \u200b\u2060 "])(
    "render --guideline %j exits 2 saying so, as --model does",
    async (rule) => {
      const root = project();
      const out = await cli(root, join(root, "p"), ["render", "--guideline", rule]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain("--guideline expects a rule's text, got ");
      expect(out.stdout).toBe("");
      const model = await cli(root, join(root, "p"), ["render", "--model", rule]);
      expect(model.code, model.stderr).toBe(2);
    },
  );

  it("a rule with text is still taken", async () => {
    const root = project();
    const out = await cli(root, join(root, "p"), ["render", "--guideline", "Say \u200bhi"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("- Say \u200bhi");
  });
});
