import { afterEach, describe, expect, it } from "vitest";
import {
  clearStepCache,
  DEFAULT_DEADLINE_MS,
  type GatherStep,
  lateStepsWarning,
  runStep,
} from "../../src/gather/deadline.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

const clock = () => performance.now();

afterEach(() => clearStepCache());

/** A step whose work the test settles by hand, counting how often it started. */
function controlled(key: string | undefined) {
  const runs: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const step: GatherStep<string> = {
    name: "slow",
    run: () =>
      new Promise<string>((resolve, reject) => {
        runs.push({ resolve, reject });
      }).then((value) => ({ value, diagnostics: [] })),
    fallback: "fallback",
    ...(key === undefined ? {} : { cacheKey: key }),
  };
  return { step, runs };
}

/** Lets the late work's settle handlers run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe("runStep with a cacheKey: late work serves the next render", () => {
  it("a result that arrives after the deadline is used by the next render, without running again", async () => {
    const { step, runs } = controlled("k");
    const first = await runStep(step, clock() + 10, clock);
    expect([first.value, first.timing.status]).toEqual(["fallback", "timeout"]);
    runs[0]?.resolve("late value");
    await settle();

    const second = await runStep(step, clock() + 10, clock);
    expect([second.value, second.timing.status, second.diagnostics]).toEqual([
      "late value",
      "ok",
      [],
    ]);
    expect(runs.length).toBe(1);
  });

  it("a kept result is used once: the render after that runs the step afresh", async () => {
    const { step, runs } = controlled("k");
    await runStep(step, clock() + 10, clock);
    runs[0]?.resolve("late value");
    await settle();
    await runStep(step, clock() + 10, clock);

    const third = runStep(step, clock() + 1000, clock);
    await settle();
    expect(runs.length).toBe(2);
    runs[1]?.resolve("fresh");
    expect((await third).value).toBe("fresh");
  });

  it("while late work still runs, the next render waits on it instead of starting a second copy", async () => {
    const { step, runs } = controlled("k");
    await runStep(step, clock() + 10, clock);
    const second = runStep(step, clock() + 1000, clock);
    await settle();
    expect(runs.length).toBe(1);
    runs[0]?.resolve("shared");
    expect([(await second).value, (await second).timing.status]).toEqual(["shared", "ok"]);
    // Taken by the second render: nothing is left for a third.
    const third = runStep(step, clock() + 1000, clock);
    await settle();
    expect(runs.length).toBe(2);
    runs[1]?.resolve("third");
    await third;
  });

  it("a joined run that is late again stays shared; its result goes to the render after", async () => {
    const { step, runs } = controlled("k");
    await runStep(step, clock() + 10, clock);
    const second = await runStep(step, clock() + 10, clock);
    expect(second.timing.status).toBe("timeout");
    runs[0]?.resolve("eventually");
    await settle();
    expect((await runStep(step, clock() + 10, clock)).value).toBe("eventually");
    expect(runs.length).toBe(1);
  });

  it("late work that fails leaves nothing behind", async () => {
    const { step, runs } = controlled("k");
    await runStep(step, clock() + 10, clock);
    runs[0]?.reject(new Error("gone"));
    await settle();
    const next = runStep(step, clock() + 1000, clock);
    await settle();
    expect(runs.length).toBe(2);
    runs[1]?.resolve("again");
    expect((await next).value).toBe("again");
  });

  it("without a key, late work is dropped and every render runs the step", async () => {
    const { step, runs } = controlled(undefined);
    await runStep(step, clock() + 10, clock);
    runs[0]?.resolve("late value");
    await settle();
    const second = await runStep(step, clock() + 10, clock);
    expect([second.value, runs.length]).toEqual(["fallback", 2]);
  });

  it("different keys do not share late work", async () => {
    const a = controlled("a");
    await runStep(a.step, clock() + 10, clock);
    a.runs[0]?.resolve("for a");
    await settle();
    const b = await runStep({ ...a.step, cacheKey: "b" }, clock() + 10, clock);
    expect([b.value, b.timing.status]).toEqual(["fallback", "timeout"]);
  });
});

describe("lateStepsWarning", () => {
  const t = (name: string, status: "ok" | "timeout" | "failed" | "skipped") => ({
    name,
    status,
    ms: 1,
  });

  it("none when no step is late", () => {
    expect(lateStepsWarning([t("a", "ok"), t("b", "failed"), t("c", "skipped")], 5000)).toEqual([]);
  });

  it("one warning naming the one late step", () => {
    expect(lateStepsWarning([t("a", "ok"), t("tree", "timeout")], 50)).toEqual([
      {
        level: "warning",
        code: "step-timeout",
        message: 'gathering step "tree" missed the 50 ms deadline; its fallback was used',
      },
    ]);
  });

  it("one warning naming every late step, in step order", () => {
    expect(
      lateStepsWarning([t("context", "timeout"), t("skills", "ok"), t("tree", "timeout")], 50),
    ).toEqual([
      {
        level: "warning",
        code: "step-timeout",
        message:
          'gathering steps "context", "tree" missed the 50 ms deadline; their fallbacks were used',
      },
    ]);
  });
});

describe("the deadline option", () => {
  it("defaults to 5000 ms", () => {
    expect(DEFAULT_DEADLINE_MS).toBe(5000);
  });

  it("a negative deadline is the caller's error", async () => {
    await expect(renderSystemPrompt(pinned(tempDir(), { deadlineMs: -5 }))).rejects.toThrow(
      "deadlineMs: must be a number of milliseconds, 0 or more, got -5",
    );
  });
});
