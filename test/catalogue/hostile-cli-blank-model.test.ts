import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev69b F3: `--model ""` was refused (rev68d F5) but `--model " "`, a TAB or U+200B was
// taken and printed `- Model: ` with nothing after it, exit 0: a wrapper's `--model "$MODEL "`
// with the variable unset still slipped through. `isName` now says blank as `showsNothing` does.

function project() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
  return root;
}

describe("hostile-cli-blank-model: a blank --model is a usage error", () => {
  it.each([" ", "\t", "\u200b", " \u00ad "])(
    "render --model %j exits 2 saying so",
    async (model) => {
      const root = project();
      const out = await cli(root, join(root, "p"), ["render", "--model", model]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain(
        "sysprompt: --model expects a model name, such as claude-sonnet-4, got ",
      );
      expect(out.stdout).toBe("");
    },
  );

  it("a model name is still taken", async () => {
    const root = project();
    const out = await cli(root, join(root, "p"), ["render", "--model", "claude-sonnet-4"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("claude-sonnet-4");
  });
});
