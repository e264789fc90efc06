import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A file system that hangs cannot be built in a test, so the context and
// skills steps are made to hang here: renderSystemPrompt must still keep its
// deadline, and report both late steps in one warning.
vi.mock("../../src/gather/context/context-files.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/gather/context/context-files.js")>()),
  traceContextFiles: () => new Promise(() => undefined),
}));
vi.mock("../../src/skills/index.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/skills/index.js")>()),
  loadSkills: () => new Promise(() => undefined),
}));

describe("renderSystemPrompt with gathering steps that never resolve", () => {
  it("returns within the deadline plus a small constant, with the fallbacks and one warning naming the late steps", async () => {
    // A first render in this worker pays for loading and compiling the templates
    // under vitest's on-demand transform (71-390 ms measured here, at the base
    // commit too), which a host pays once at import, not per render: warm up first.
    await renderSystemPrompt(pinned(tempDir(), { deadlineMs: 20 }));
    const started = performance.now();
    const result = await renderSystemPrompt(pinned(tempDir(), { deadlineMs: 300 }));
    expect(performance.now() - started).toBeLessThan(300 + 250);
    expect(result.steps.map((s) => [s.name, s.status])).toEqual([
      ["builtin", "ok"],
      ["user", "ok"],
      ["project", "ok"],
      ["context", "timeout"],
      ["rule-files", "ok"],
      ["skills", "timeout"],
      ["environment", "ok"],
      ["git", "skipped"],
      ["tree", "skipped"],
    ]);
    expect(result.diagnostics).toEqual([
      {
        level: "warning",
        code: "step-timeout",
        message:
          'gathering steps "context", "skills" missed the 300 ms deadline; their fallbacks were used',
      },
    ]);
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "cwd",
      "environment",
      "date",
    ]);
  });
});
