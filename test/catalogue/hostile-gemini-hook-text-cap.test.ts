import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closingAfter } from "../../src/_fence.js";
import { GEMINI_SHELL_TEXT_ROOM } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { tempDir } from "../api/_helpers.js";
import { GEMINI_CUT, geminiCall, geminiContext, geminiSends } from "./_gemini.js";

// ed71139 gave nothing for a Gemini CLI shell result longer than 40,000 minus
// 9,500 characters, taking the hook's text to fit in 9,500, but nothing held
// Gemini CLI's text to it (review rev38c F1, medium): with a 45 KB nested
// AGENTS.md, a 7,900-character output went past Gemini CLI's cut, and the
// user's glob rule, first in the text, fell in the cut middle while it
// counted as given; a fence opened in the kept head took the rest into a code
// block. Gemini CLI also writes each `<` and `>` of the text as four
// characters, so a text of 9,063 grew to 16,287. The text is now held to
// 9,500 characters as Gemini CLI counts them, your files first, and a shell
// result's closer counts against the output's side.

function setup(nested: string) {
  const base = tempDir();
  const cwd = join(base, "p");
  const home = join(base, "home");
  const files: Record<string, string> = {
    "p/.git/HEAD": "ref: refs/heads/main\n",
    "p/pkg/sub/AGENTS.md": nested,
    "p/pkg/sub/x.ts": "export const x = 1;\n",
    "home/.pi/agent/rules/ts.md":
      '---\nglobs: "**/*.ts"\ndescription: ts rule\n---\nUSER-GLOB-RULE: strict types.\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(base, path, ".."), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  return { cwd, where: { env: { XDG_CACHE_HOME: join(base, "cache") }, home } };
}

const call = (cwd: string, tool: string, llmContent: string, session = "s-cap") =>
  geminiCall(session, cwd, tool, llmContent);

const BIG = `# pkg/sub\n\n${"NESTED-AGENTS: no default exports. ".repeat(1300)}\nREPO-TAIL\n`;

describe("hostile repository: the hook's text in Gemini CLI is held to what it keeps", () => {
  it("a 7,900-character shell output and a 45 KB nested AGENTS.md: nothing is cut, your rule is seen", async () => {
    const { cwd, where } = setup(BIG);
    const output = `${"log line\n".repeat(877)}xxxxxxx`;
    const { reply } = await runHook("gemini-cli", call(cwd, "run_shell_command", output), where);
    const sent = geminiSends(output, reply, true);
    expect(sent.length).toBeLessThanOrEqual(GEMINI_CUT);
    expect(sent).toContain("USER-GLOB-RULE");
    expect(geminiContext(reply).length).toBeLessThanOrEqual(GEMINI_SHELL_TEXT_ROOM);
  });

  it("a fence the output opens in Gemini CLI's kept head: the text after the closer stays out of it", async () => {
    const { cwd, where } = setup(BIG);
    const output = `\`\`\`\n${"log line\n".repeat(2222)}`;
    const { reply } = await runHook("gemini-cli", call(cwd, "run_shell_command", output), where);
    const sent = geminiSends(output, reply, true);
    const at = sent.indexOf("USER-GLOB-RULE");
    expect(at).toBeGreaterThan(-1);
    expect(closingAfter(sent.slice(0, at))).toBe("");
  });

  it("a nested AGENTS.md of `<` and `>` is counted as Gemini CLI writes it, four characters each", async () => {
    const { cwd, where } = setup(`# sub\n${"x => a<b>c\n".repeat(800)}`);
    const { reply } = await runHook("gemini-cli", call(cwd, "run_shell_command", "ok\n"), where);
    expect(geminiContext(reply).length).toBeLessThanOrEqual(GEMINI_SHELL_TEXT_ROOM);
    expect(geminiContext(reply)).toContain("USER-GLOB-RULE");
  });

  // The room is the shell's alone (review rev39b F2, low-medium): held on read_file too, which
  // Gemini CLI never cuts, it cut your own 7,958-character JSX rule with a marker, counted as given.
  it("a read_file's text is not held to the shell's room: Gemini CLI keeps it whole", async () => {
    const { cwd, where } = setup(BIG);
    const { reply, note } = await runHook(
      "gemini-cli",
      call(cwd, "read_file", "export const x = 1;\n"),
      where,
    );
    expect(note).toBeUndefined();
    expect(geminiContext(reply)).toContain("USER-GLOB-RULE");
    expect(geminiContext(reply)).toContain("REPO-TAIL");
  });

  it("your own rule of 8,000 characters rich in < > & reaches read_file whole", async () => {
    const { cwd, where } = setup("# pkg/sub\n\nNESTED-AGENTS: no default exports.\n");
    const example =
      'Write <Button onClick={() => save(a && b)}>Save</Button>, not <div role="button">.\n';
    const rule = `USER-TSX-START\n${example.repeat(95)}USER-TSX-END\n`;
    writeFileSync(
      join(where.home, ".pi/agent/rules/ts.md"),
      `---\nglobs: "**/*.ts"\ndescription: ts rule\n---\n${rule}`,
    );
    const { reply, note } = await runHook(
      "gemini-cli",
      call(cwd, "read_file", "export const x = 1;\n"),
      where,
    );
    // Nothing cut; the one note is that your `<Button` was written `&lt;` (an element of the prompt's: fx77c).
    expect(note).toContain("your file's tag \"<Button");
    expect(geminiContext(reply)).toContain("USER-TSX-END");
    expect(geminiContext(reply)).not.toContain("left out");
  });

  it("a long closer counts against the output: the output, closer and text would pass the cut, so nothing is added", async () => {
    const { cwd, where } = setup("# pkg/sub\n\nNESTED-AGENTS: no default exports.\n");
    // 19,920 before the text and a 19,900-character closer: 163 characters left, fewer than the text takes.
    const output = `${"`".repeat(19_900)}\nx\n`;
    const { reply, note } = await runHook(
      "gemini-cli",
      call(cwd, "run_shell_command", output),
      where,
    );
    expect(reply).toBe("{}\n");
    expect(note).toMatch(/Gemini CLI would cut/);
    expect(geminiSends(output, reply, true).length).toBeLessThanOrEqual(GEMINI_CUT);
  });
});
