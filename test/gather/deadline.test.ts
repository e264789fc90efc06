import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DeadlinePassed, type Gathered, runStep } from "../../src/gather/deadline.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { timed } from "./_timed.js";

/** What "returns within the deadline plus a small constant" allows on a busy CI machine (runStep alone, no render). */
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

  it("work that settles past the deadline, before the step's timer had its turn, is late", async () => {
    // The render's signal fires at the deadline: a walk that gives up on it,
    // or a git killed by it, settles with what it had, and that is no "ok".
    let now = 0;
    const fake = () => now;
    const outcome = await runStep(
      {
        name: "stopped",
        run: async () => {
          await new Promise((done) => setTimeout(done, 20));
          now = 1001;
          return quiet("what it had when stopped");
        },
        fallback: "fallback",
        partial: () => quiet("partial"),
      },
      1000,
      fake,
    );
    expect([outcome.value, outcome.timing.status]).toEqual(["partial", "timeout"]);
  });

  it("the render's deadline reason is a late step, not a failed one", async () => {
    const outcome = await runStep(
      {
        name: "aborted",
        run: async () => {
          throw new DeadlinePassed();
        },
        fallback: "fallback",
      },
      clock() + 5000,
      clock,
    );
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

  it("a step that rejects keeps its partial (what it had read, yours first) with the error (rev50b F8)", async () => {
    const said = { level: "info" as const, code: "x", message: "read yours", path: "/home/u/s" };
    const outcome = await runStep(
      {
        name: "skills",
        run: async () => {
          throw new RangeError("Maximum call stack size exceeded");
        },
        fallback: ["nothing"],
        partial: () => ({ value: ["your-skill"], diagnostics: [said] }),
      },
      clock() + 1000,
      clock,
    );
    expect([outcome.value, outcome.timing.status, outcome.diagnostics]).toEqual([
      ["your-skill"],
      "failed",
      [
        said,
        {
          level: "error",
          code: "step-failed",
          message: 'gathering step "skills" failed: Maximum call stack size exceeded',
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

/** A machine whose system files never finish reading: the environment step hangs. */
const hangingMachine = () => ({
  platform: "linux",
  arch: "x64",
  readFile: () => never<string>(),
});

describe("renderSystemPrompt under a small deadline", () => {
  it("deadlineMs: 0 returns at once, without the step that hangs; late steps time out rather than fail", async () => {
    // The time a render takes when nothing is late (the templates, the render
    // itself) is measured here, before and after, as this run's baseline: on
    // a loaded machine it is seconds, on a quiet one tens of ms. The render at
    // deadline 0 cannot finish by waiting for the step (it never ends); it is
    // held to the baseline, not to a constant, so load does not fail it and a
    // deadline that was not 0 (a 5 s default) does.
    const plain = () => renderSystemPrompt(pinned(tempDir()));
    await plain(); // the first render of a process also compiles the builtin templates
    const before = await timed(plain);
    const late = await timed(() =>
      renderSystemPrompt(pinned(tempDir(), { deadlineMs: 0, machine: hangingMachine() })),
    );
    const after = await timed(plain);
    expect(late.ms).toBeLessThan(2 * Math.max(before.ms, after.ms) + 100);
    const result = late.value;
    expect(result.steps.find((s) => s.name === "environment")?.status).toBe("timeout");
    // Steps that are off (the tree, by default) are skipped; none may fail.
    expect(result.steps.filter((s) => s.status === "failed")).toEqual([]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["step-timeout"]);
    expect(result.diagnostics[0]?.message).toMatch(/"environment".* missed the 0 ms deadline/);
    // The fallback: the environment section without the machine's facts, and the rest of the prompt.
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "cwd",
      "environment",
      "date",
    ]);
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
  it("FIFOs wherever a file is expected: nothing is opened, no step waits on one", async () => {
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

    // A FIFO that was opened would hold its step until the deadline: a step
    // that timed out is the sign, whatever the machine's load. The deadline is
    // long so that no step of this tiny project is late on a loaded machine.
    const deadlineMs = 8000;
    const result = await renderSystemPrompt(pinned(root, { deadlineMs }));
    expect(result.steps.filter((s) => s.status !== "ok" && s.status !== "skipped")).toEqual([]);
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
  }, 30_000);
});
