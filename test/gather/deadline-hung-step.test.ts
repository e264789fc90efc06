import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A file system that hangs cannot be built in a test, so the context step is
// made to hang here: renderSystemPrompt must still keep its deadline.
vi.mock("../../src/gather/context-files.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/gather/context-files.js")>()),
  loadContextFiles: () => new Promise(() => undefined),
}));

describe("renderSystemPrompt with a gathering step that never resolves", () => {
  it("returns within the deadline plus a small constant, with the fallback and a diagnostic", async () => {
    const started = performance.now();
    const result = await renderSystemPrompt(pinned(tempDir(), { deadlineMs: 300 }));
    expect(performance.now() - started).toBeLessThan(300 + 250);
    expect(result.steps.map((s) => [s.name, s.status])).toEqual([
      ["builtin", "ok"],
      ["user", "ok"],
      ["project", "ok"],
      ["context", "timeout"],
      ["skills", "ok"],
      ["tree", "skipped"],
    ]);
    expect(result.diagnostics).toEqual([
      {
        level: "warning",
        code: "step-timeout",
        message: 'gathering step "context" missed the deadline; its fallback was used',
      },
    ]);
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "environment",
      "cwd",
      "date",
    ]);
  });
});
