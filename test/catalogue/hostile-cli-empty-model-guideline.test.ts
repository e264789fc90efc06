import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev68d F5: `--model ""` rendered the prompt of no model and `--guideline ""` added
// nothing, exit 0 and no word, while `--agent ""`, `--agent-mode ""`, `--tree-depth ""` were
// usage errors: a wrapper's `--model "$MODEL"` with the variable unset lost the model's variants
// of the prompt silently.

describe("hostile-cli-empty-model-guideline: an empty --model or --guideline is a usage error", () => {
  it.each([
    [["--model", ""], '--model expects a model name, such as claude-sonnet-4, got ""'],
    [["--guideline", ""], `--guideline expects a rule's text, got ""`],
    [
      ["--guideline", "keep it short", "--guideline", "  "],
      `--guideline expects a rule's text, got "  "`,
    ],
  ])("render %j exits 2 saying so", async (flags, said) => {
    const root = tempDir();
    for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
    const out = await cli(root, join(root, "p"), ["render", ...flags]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`sysprompt: ${said}\n`);
    expect(out.stdout).toBe("");
  });

  it("a model and a rule are still taken", async () => {
    const root = tempDir();
    for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
    const out = await cli(root, join(root, "p"), [
      "render",
      "--model",
      "claude-sonnet-4",
      "--guideline",
      "RULE-MARKER",
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("RULE-MARKER");
    expect(out.stdout).toContain("claude-sonnet-4");
  });
});
