import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Gathered, runStep } from "../../src/gather/deadline.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";

/** What "returns within the deadline plus a small constant" allows on a busy CI machine. */
// Renders below use a 300 ms deadline: small, yet long enough that the
// builtin templates load in time on a loaded machine (a late builtin step
// would leave an empty prompt and make the section assertions flaky).
const SLACK_MS = 250;

const clock = () => performance.now();
const never = <T>() => new Promise<T>(() => undefined);
/** A step's result with nothing to say. */
const quiet = <T>(value: T) => ({ value, diagnostics: [] });

describe("runStep", () => {
  it("a step that never resolves gives its fallback at the deadline, status timeout, no diagnostic of its own", async () => {
    const started = clock();
    const outcome = await runStep(
      { name: "tree", run: () => never<Gathered<string[]>>(), fallback: ["fallback"] },
      started + 40,
      clock,
    );
    const elapsed = clock() - started;
    expect(elapsed).toBeGreaterThanOrEqual(35);
    expect(elapsed).toBeLessThan(40 + SLACK_MS);
    expect({ ...outcome, timing: { ...outcome.timing, ms: 0 } }).toEqual({
      value: ["fallback"],
      timing: { name: "tree", status: "timeout", ms: 0 },
      diagnostics: [],
    });
    expect(outcome.timing.ms).toBeGreaterThanOrEqual(35);
  });

  it("a late step with a partial gives what partial returns at the deadline", async () => {
    let soFar = ["a"];
    const outcome = await runStep(
      {
        name: "context",
        run: async () => {
          soFar = [...soFar, "b"];
          return never<Gathered<string[]>>();
        },
        fallback: [] as string[],
        partial: () => quiet(soFar),
      },
      clock() + 20,
      clock,
    );
    expect([outcome.value, outcome.timing.status]).toEqual([["a", "b"], "timeout"]);
  });

  it("a partial that throws falls back to the fallback", async () => {
    const outcome = await runStep(
      {
        name: "x",
        run: () => never<Gathered<string>>(),
        fallback: "fallback",
        partial: () => {
          throw new Error("oops");
        },
      },
      clock() + 10,
      clock,
    );
    expect([outcome.value, outcome.timing.status]).toEqual(["fallback", "timeout"]);
  });

  it("a deadline already past still lets a step that is already done win", async () => {
    const outcome = await runStep(
      { name: "quick", run: async () => quiet("done"), fallback: "fallback" },
      clock() - 1000,
      clock,
    );
    expect([outcome.value, outcome.timing.status, outcome.diagnostics]).toEqual(["done", "ok", []]);
  });

  it("a deadline already past times a pending step out at once, not as a failure", async () => {
    const started = clock();
    const outcome = await runStep(
      { name: "late", run: () => never<Gathered<string>>(), fallback: "fallback" },
      started - 1000,
      clock,
    );
    expect(clock() - started).toBeLessThan(SLACK_MS);
    expect([outcome.value, outcome.timing.status, outcome.diagnostics]).toEqual([
      "fallback",
      "timeout",
      [],
    ]);
  });

  it("a step that rejects gives its fallback, status failed, with an error", async () => {
    const outcome = await runStep(
      {
        name: "skills",
        run: async () => {
          throw new Error("disk on fire");
        },
        fallback: 0,
      },
      clock() + 1000,
      clock,
    );
    expect([outcome.value, outcome.timing.status, outcome.diagnostics]).toEqual([
      0,
      "failed",
      [
        {
          level: "error",
          code: "step-failed",
          message: 'gathering step "skills" failed: disk on fire',
        },
      ],
    ]);
  });

  it("a step's own diagnostics reach its outcome with its value; a late step's partial brings its own", async () => {
    const said = { level: "info" as const, code: "x", message: "read a.md", path: "/p/a.md" };
    const done = await runStep(
      { name: "context", run: async () => ({ value: 1, diagnostics: [said] }), fallback: 0 },
      clock() + 1000,
      clock,
    );
    expect([done.value, done.timing.status, done.diagnostics]).toEqual([1, "ok", [said]]);
    const late = await runStep(
      {
        name: "context",
        run: () => never<Gathered<number>>(),
        fallback: 0,
        partial: () => ({ value: 2, diagnostics: [said] }),
      },
      clock() + 10,
      clock,
    );
    expect([late.value, late.timing.status, late.diagnostics]).toEqual([2, "timeout", [said]]);
  });

  it("a step with no run is skipped and never waits", async () => {
    const outcome = await runStep({ name: "off", run: undefined, fallback: "x" }, clock(), clock);
    expect([outcome.value, outcome.timing.status, outcome.diagnostics]).toEqual([
      "x",
      "skipped",
      [],
    ]);
  });

  it("a SyspromptError is the caller's misuse and is rethrown", async () => {
    const error = new SyspromptError("bad-option", "bad");
    await expect(
      runStep({ name: "x", run: () => Promise.reject(error), fallback: 0 }, clock() + 1000, clock),
    ).rejects.toBe(error);
  });
});

describe("renderSystemPrompt under a small deadline", () => {
  it("deadlineMs: 0 returns at once; late steps time out rather than fail", async () => {
    // Warm up first: the first render of a process parses and compiles the
    // builtin templates (150-450 ms cold under vitest on a loaded machine),
    // which is not gathering and not what the deadline bounds.
    await renderSystemPrompt(pinned(tempDir()));
    const started = clock();
    const result = await renderSystemPrompt(pinned(tempDir(), { deadlineMs: 0 }));
    expect(clock() - started).toBeLessThan(SLACK_MS);
    // Steps that are off (the tree, by default) are skipped; none may fail.
    expect(result.steps.filter((s) => s.status === "failed")).toEqual([]);
    expect(result.diagnostics.filter((d) => d.code !== "step-timeout")).toEqual([]);
  });
  it("the builtin templates are not bound by the deadline: even deadlineMs 0 gives the builtin prompt", async () => {
    const dir = tempDir();
    const late = await renderSystemPrompt(pinned(dir, { deadlineMs: 0 }));
    const onTime = await renderSystemPrompt(pinned(dir));
    expect(late.steps[0]).toMatchObject({ name: "builtin", status: "ok" });
    expect(late.sections.map((s) => s.name).slice(0, 3)).toEqual(["preamble", "tools", "rules"]);
    expect(late.sections.find((s) => s.name === "rules")).toEqual(
      onTime.sections.find((s) => s.name === "rules"),
    );
  });
  it("FIFOs wherever a file is expected: nothing is opened, the render finishes fast", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const dirs = [
      join(root, "agent", "sections"),
      join(root, "agent", "partials"),
      join(project, ".pi", "sections"),
      join(project, ".pi", "partials"),
      join(project, ".pi", "prompts"),
      join(project, ".pi", "skills", "fifo-skill"),
    ];
    for (const dir of dirs) mkdirSync(dir, { recursive: true });
    const fifos = [
      join(root, "AGENTS.md"),
      join(root, "agent", "AGENTS.md"),
      join(root, "agent", "SYSTEM.md"),
      join(root, "agent", "sections", "rules.md"),
      join(root, "agent", "partials", "p.md"),
      join(project, "AGENTS.md"),
      join(project, ".pi", "SYSTEM.md"),
      join(project, ".pi", "SYSTEM_TEMPLATE.md"),
      join(project, ".pi", "APPEND_SYSTEM.md"),
      join(project, ".pi", "general-rules.md"),
      join(root, "agent", "general-rules.md"),
      join(project, ".pi", "sections", "tools.md"),
      join(project, ".pi", "partials", "q.md"),
      join(project, ".pi", "skills", "fifo-skill", "SKILL.md"),
    ];
    execFileSync("mkfifo", fifos);

    const started = clock();
    const result = await renderSystemPrompt(pinned(root, { deadlineMs: 300 }));
    expect(clock() - started).toBeLessThan(300 + SLACK_MS);
    expect(result.sections.map((s) => [s.name, s.source.layer])).toEqual([
      ["preamble", "builtin"],
      ["tools", "builtin"],
      ["rules", "builtin"],
      ["cwd", "builtin"],
      ["environment", "builtin"],
      ["date", "builtin"],
    ]);
    // Each FIFO is reported as "not a regular file", none was opened.
    expect(
      result.diagnostics
        .map((d) => d.path?.slice(root.length + 1))
        .filter((p) => p !== undefined)
        .sort(),
    ).toEqual(fifos.map((f) => f.slice(root.length + 1)).sort());
  }, 5000);
});
