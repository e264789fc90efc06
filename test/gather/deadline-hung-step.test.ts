import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { timed } from "./_timed.js";

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
  it("returns at the deadline plus this run's own render time, with the fallbacks and one warning naming the late steps", async () => {
    // A first render in this worker pays for loading and compiling the templates
    // under vitest's on-demand transform (71-390 ms measured here, at the base
    // commit too), which a host pays once at import, not per render: warm up first.
    await renderSystemPrompt(pinned(tempDir(), { deadlineMs: 20 }));
    // What a render costs when nothing waits (the two steps that hang here
    // are off: no context files, the caller's own skills), measured in this
    // run before and after: tens of ms on a quiet machine, seconds on a loaded
    // one. The steps never end, so the render returns only because it kept
    // the deadline; the bound says it did not wait on past it by more than
    // the work a render does anyway.
    const atOnce = () =>
      timed(() => renderSystemPrompt(pinned(tempDir(), { noContextFiles: true, skills: [] })));
    const before = await atOnce();
    const deadlineMs = 1000; // long enough that the steps that do end are on time under load
    const { ms, value: result } = await timed(() =>
      renderSystemPrompt(pinned(tempDir(), { deadlineMs })),
    );
    const after = await atOnce();
    expect(ms).toBeGreaterThanOrEqual(deadlineMs - 1);
    expect(ms - deadlineMs).toBeLessThan(2 * Math.max(before.ms, after.ms) + 100);
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
    // Your own parts hang here, so the repository's waited for them at the own-first gate until
    // it opened (at half the budget, or 250 ms with no call answered): the warning says so.
    expect(result.diagnostics).toEqual([
      {
        level: "warning",
        code: "step-timeout",
        message: expect.stringMatching(
          /^gathering steps "context", "skills" missed the 1000 ms deadline; their fallbacks were used(; the repository's parts waited \d+ ms at the own-first gate for your context files, your skills to be read first: raise --deadline to keep both)?$/,
        ),
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
