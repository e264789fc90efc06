import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A deadline that passed while your AGENTS.md's import of a kit file was walked (a kit whose
// links are padded with thousands of `./`) dropped your AGENTS.md with the rest of the context
// step: the step's partial value held your file only once its imports were all expanded. Now
// your file, once read, is kept with its imports as written (`import-late` says so) until they
// are. Review rev47a F2 (medium).

/** The kit's walk is busy past the deadline (a look-up in flight when it fires; a kit's padded chain of links). */
vi.mock("../../src/repo-files/index.js", async (importOriginal) => {
  const files = await importOriginal<typeof import("../../src/repo-files/index.js")>();
  return {
    ...files,
    heldLinks: (...args: Parameters<typeof files.heldLinks>) => {
      const walk = files.heldLinks(...args);
      return async (path: string) => {
        if (path.includes("prompt-kit")) await new Promise((done) => setTimeout(done, 3_000));
        return walk(path);
      };
    },
  };
});

describe("hostile-kit-link-late-import-scale: an import walked past the deadline leaves your AGENTS.md", () => {
  it("your file is in the prompt, its import left as written, import-late said", async () => {
    const root = tempDir();
    const kit = join(root, "home", "src", "prompt-kit");
    mkdirSync(join(kit, ".git"), { recursive: true });
    writeFileSync(join(kit, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(kit, "base.md"), "KIT-BASE-MARKER\n");
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), "MY-RULES-MARKER\n@~/src/prompt-kit/base.md\n");
    const result = await renderSystemPrompt(pinned(root, { deadlineMs: 1500 }));
    expect(result.diagnostics.map((d) => d.code)).toContain("step-timeout");
    expect(result.text).toContain("MY-RULES-MARKER");
    expect(result.text).toContain("@~/src/prompt-kit/base.md");
    expect(result.text).not.toContain("KIT-BASE-MARKER");
    const late = result.diagnostics.find((d) => d.code === "import-late");
    expect(late?.path).toBe(join(root, "agent", "AGENTS.md"));
  }, 20_000);
});
