import { describe, expect, it } from "vitest";
import { GEMINI_SHELL_KEPT_CHARS, GEMINI_SHELL_TEXT_ROOM } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { geminiCall, geminiProject } from "./_gemini.js";

// Gemini CLI cuts a shell command's result, the hook's text already appended,
// past 40,000 characters to its first fifth and last four fifths. Review
// rev37c (G1, medium): a fence opened in the kept head and closed in the cut
// middle took the files given into a code block; one opened in the cut middle
// turned the hook's own closer into an opener; and with a 38 KB repository
// AGENTS.md beside the command's folder, the user's glob rule fell in the part
// cut out, yet counted as given. A shell result that leaves less room before
// the cut than the hook's text takes now gets nothing, and the files come with
// a later call (catalogue/hostile-gemini-shell-room); after a shorter result,
// the text, held to 9,500 characters (review rev38c F1), is not cut.

function setup() {
  return geminiProject({
    "p/pkg/sub/AGENTS.md": `# pkg/sub\n\n${"NESTED-AGENTS: no default exports. ".repeat(1300)}\n`,
    "p/pkg/sub/x.ts": "export const x = 1;\n",
  });
}

const call = (cwd: string, tool: string, llmContent: string) =>
  geminiCall("s-shell", cwd, tool, llmContent);

describe("hostile repository: Gemini CLI's cut of a shell command's output", () => {
  it("a shell result that Gemini CLI would cut with the hook's text gets nothing, and the files come later", async () => {
    const { cwd, where } = setup();
    const output = `\`\`\`\n${"log line\n".repeat(4000)}`;
    expect(output.length).toBeGreaterThan(GEMINI_SHELL_KEPT_CHARS - GEMINI_SHELL_TEXT_ROOM);
    const cut = await runHook("gemini-cli", call(cwd, "run_shell_command", output), where);
    expect(cut.reply).toBe("{}\n");
    expect(cut.note).toMatch(/Gemini CLI would cut/);
    const next = await runHook(
      "gemini-cli",
      call(cwd, "read_file", "export const x = 1;\n"),
      where,
    );
    expect(next.reply).toContain("USER-GLOB-RULE");
  });

  it("a short shell result gets the hook's text, held to the room so Gemini CLI cuts nothing", async () => {
    const { cwd, where } = setup();
    const output = "ok\n";
    const { reply } = await runHook("gemini-cli", call(cwd, "run_shell_command", output), where);
    const context = JSON.parse(reply).hookSpecificOutput.additionalContext as string;
    const sent = `${output}\n\n<hook_context>${context}</hook_context>`;
    // Past 40,000 characters Gemini CLI keeps the first fifth and the last four fifths.
    expect(sent.length).toBeLessThanOrEqual(GEMINI_SHELL_KEPT_CHARS);
    expect(sent.indexOf("USER-GLOB-RULE")).toBeGreaterThan(-1);
  });
});
