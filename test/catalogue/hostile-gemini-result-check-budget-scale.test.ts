import { describe, expect, it } from "vitest";
import { closeOpenBlocks, HOST_RESULT_CHECK_CHARS, hiddenClosingAfter } from "../../src/_fence.js";
import { GEMINI_SHELL_TOOL, replyStart } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev66e F1 (= rev66b F2): Gemini CLI's hook checked a tool result's end outside any budget
// (`replyStart` called `hiddenClosingAfter` itself): a 300-480 KB result cost 2.3-2.7 s of CPU on
// every Gemini call, before it looked whether the call names a path or whether a shell result
// leaves any room, past the hook's 5 s at load. The result is now held to the budget pi's and
// opencode's results have (HOST_RESULT_CHECK_CHARS), refusals by length come before any reading,
// a call that names no path never reads it, and outside every scope the check fails closed
// (rev66e F5: a skill's expansion, a project's APPEND_SYSTEM.md were checked to 1 MiB unscoped).
// Bounds are on CPU time: the unbounded check took 2.3 s at these sizes; 0.5 s leaves load slack.

const LINE = "const a = b < c && d > e; // *x* [y](z)\n";
const source = (chars: number) => `<div>\n${LINE.repeat(Math.ceil(chars / LINE.length))}`;

describe("hostile repository: every tool result's check has a budget", () => {
  it("a 300 KB read_file result: refused by its length, in well under a second", async () => {
    const result = source(300_000);
    const { cpuMs, value } = await cpuTimed(() => replyStart("gemini-cli", result, "read_file"));
    expect(cpuMs).toBeLessThan(500);
    expect(value).toEqual({ nothing: expect.stringContaining(`${HOST_RESULT_CHECK_CHARS}`) });
  });

  it("a shell result past Gemini CLI's cut: refused before any reading", async () => {
    const { cpuMs, value } = await cpuTimed(() =>
      replyStart("gemini-cli", source(200_000), GEMINI_SHELL_TOOL),
    );
    expect(cpuMs).toBeLessThan(500);
    expect(value).toEqual({ nothing: expect.stringContaining("cut past") });
  });

  it("a check that cannot finish is not said to be more HTML than a reading takes", () => {
    const result = `<b>x</b>\n${"- x\n".repeat(2_000)}<plaintext>\n`;
    const start = replyStart("gemini-cli", result, "read_file");
    expect(start).toEqual({
      nothing: expect.not.stringContaining("more HTML than one reading takes ("),
    });
    expect(start).toEqual({ nothing: expect.stringContaining("could not read or close") });
  });

  it("a call that names no path never reads its result", async () => {
    const stdin = JSON.stringify({
      session_id: "s",
      hook_event_name: "AfterTool",
      cwd: "/nonexistent",
      tool_name: "google_web_search",
      tool_input: { query: "x" },
      tool_response: { llmContent: source(240_000) },
    });
    const { cpuMs, value } = await cpuTimed(() =>
      runHook("gemini-cli", stdin, { home: "/nonexistent", env: {} }),
    );
    expect(cpuMs).toBeLessThan(500);
    expect(value).toEqual({ reply: "{}\n" });
  });

  it("outside every budget's scope the check fails closed", async () => {
    const text = source(300_000);
    const closed = await cpuTimed(() => closeOpenBlocks(text));
    expect(closed.cpuMs).toBeLessThan(500);
    expect(closed.value).toContain("&lt;div>");
    const hidden = await cpuTimed(() => hiddenClosingAfter(text));
    expect(hidden.cpuMs).toBeLessThan(500);
    expect(hidden.value).toBeUndefined();
  });
});
