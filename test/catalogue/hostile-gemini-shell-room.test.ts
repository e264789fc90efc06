import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { GEMINI_CUT, geminiCall, geminiProject, geminiSends } from "./_gemini.js";

// 1c947fe gave nothing for any run_shell_command output longer than 40,000
// minus 9,500 minus 15 characters, whatever the size of the hook's text
// (review rev39b F4, low): a 31,000-character output and a 250-character
// user rule, 31,300 together, which Gemini CLI keeps whole, got {}; a
// repository's test script printing that much kept your rules away. The text
// is now measured against what the output leaves before the cut: it goes when
// it fits, and when it does not, nothing is added or kept as given.

function setup() {
  return geminiProject({
    "p/pkg/sub/AGENTS.md": "# pkg/sub\n\nNESTED-AGENTS: no default exports.\n",
    "p/pkg/sub/x.ts": "export const x = 1;\n",
  });
}

const call = (cwd: string, tool: string, llmContent: string) =>
  geminiCall("s-room", cwd, tool, llmContent);

describe("hostile repository: a long shell output leaves a short text its room", () => {
  for (const size of [31_000, 35_000, 39_000]) {
    it(`a ${size}-character output and a short text: given, and Gemini CLI cuts nothing`, async () => {
      const { cwd, where } = setup();
      const output = `Output: ${"x".repeat(size - 8)}`;
      const { reply, note } = await runHook(
        "gemini-cli",
        call(cwd, "run_shell_command", output),
        where,
      );
      expect(note).toBeUndefined();
      const sent = geminiSends(output, reply, true);
      expect(sent.length).toBeLessThanOrEqual(GEMINI_CUT);
      expect(sent).toContain("USER-GLOB-RULE");
      expect(sent).toContain("NESTED-AGENTS");
    });
  }

  it("an output that leaves less than the text: nothing, nothing kept as given, the files with a later call", async () => {
    const { cwd, where } = setup();
    const output = `Output: ${"x".repeat(39_700)}`;
    const cut = await runHook("gemini-cli", call(cwd, "run_shell_command", output), where);
    expect(cut.reply).toBe("{}\n");
    // Judged on the text found, not before it: its size is said.
    expect(cut.note).toMatch(/files added \(\d+ characters as Gemini CLI counts them\)/);
    expect(cut.note).toMatch(
      /Gemini CLI would cut past 40000 characters; the files come with a later call/,
    );
    const next = await runHook(
      "gemini-cli",
      call(cwd, "read_file", "export const x = 1;\n"),
      where,
    );
    expect(geminiSends("export const x = 1;\n", next.reply, false)).toContain("USER-GLOB-RULE");
  });
});
