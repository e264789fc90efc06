import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// hostile-text-or-path-planted's two rules (a one-line value of prose is text, never looked up; a
// relative path into the project is read through the door) in `explain --simulate`, which made a
// relative value absolute before it rendered the copy, and so read either past both rules.
// Attack review attack21. Slow tier: three simulations, 2-6 s.

function plantedProject(root: string): void {
  mkdirSync(join(root, "home", ".ssh"), { recursive: true });
  writeFileSync(join(root, "home", ".ssh", "id_rsa"), "SECRET-MARKER-KEY\n");
  mkdirSync(join(root, "project", ".git"), { recursive: true });
  symlinkSync(join(root, "home", ".ssh", "id_rsa"), join(root, "project", "Be concise."));
}

describe("hostile-text-or-path-simulate: the user's texts in explain --simulate", () => {
  // explain --simulate renders a copy, with relative values made absolute first: the same two
  // rules hold there (prose stays text; a project's link out of it is refused where it is named).
  it("explain --simulate: prose stays text, a project's link out is refused", async () => {
    const root = tempDir();
    plantedProject(root);
    const sandboxDir = join(root, "sandboxes");
    const plain = await simulatePrompt(
      { ...pinned(root), appendSystemPrompt: "Be precise." },
      { sandboxDir, session: false },
    );
    const planted = await simulatePrompt(
      { ...pinned(root), appendSystemPrompt: "Be concise." },
      { sandboxDir, session: false },
    );
    // The same length of text: the key's bytes would make the planted one longer.
    expect(planted.baseline.bytes).toBe(plain.baseline.bytes);
    mkdirSync(join(root, "project", "prompts"));
    symlinkSync(join(root, "home", ".ssh", "id_rsa"), join(root, "project", "prompts", "base.md"));
    await expect(
      simulatePrompt({ ...pinned(root), systemPrompt: "prompts/base.md" }, { sandboxDir }),
    ).rejects.toThrow("outside");
  });
});
