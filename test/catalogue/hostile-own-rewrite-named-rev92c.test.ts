import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev92c F4: your AGENTS.md quoting Llama 2's `[INST] text [/INST]` is printed `[INST\] text
// [/INST\]` (decided, docs/trust.md's chat-token bullet), but `own-text-tag-escaped` quoted from the
// first character that differs to the next `>` (`"] text [/INST]; keep that format in …"`) and said a
// "<" was written "&lt;", where there is no `<` and a `\` was added. The warning now names the token
// and the rewrite made, for each kind: a chat token's `\`, a tag's `<`, a look-alike's `&lt;`.

async function saidFor(text: string) {
  const root = tempDir();
  const agentDir = join(root, "home", ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "AGENTS.md"), text);
  const repo = join(root, "project");
  mkdirSync(join(repo, ".git"), { recursive: true });
  const result = await renderSystemPrompt(pinned(repo, { agentDir }));
  const said = result.diagnostics.filter((d) => d.code === "own-text-tag-escaped");
  expect(said, text).toHaveLength(1);
  return { text: result.text, message: said[0]?.message ?? "" };
}

describe("your own text's rewrite is named as made (rev92c F4)", () => {
  it("a chat token: the token whole and its `\\` before the bracket, no `<`", async () => {
    const { text, message } = await saidFor(
      "# My rules\nLlama 2 wraps a turn as [INST] text [/INST]; keep that format in prompts/llama.txt.\n",
    );
    expect(text).toContain("[INST\\] text [/INST\\]");
    expect(message).toContain('"[INST]"');
    expect(message).toContain('written "[INST\\]"');
    expect(message).toContain("line 2");
    expect(message).not.toContain("&lt;");
    expect(message).not.toContain("keep that format");
  });

  it("a tag: its `<` written `&lt;`, as before", async () => {
    const { message } = await saidFor("# My rules\nUse <tools> as a placeholder.\n");
    expect(message).toContain('"<tools>"');
    expect(message).toContain('its "<" is written "&lt;"');
  });

  it("a look-alike opener: the character it is, written `&lt;`", async () => {
    const { text, message } = await saidFor("# My rules\nUse ‹tools> as a placeholder.\n");
    expect(text).toContain("Use &lt;tools>");
    expect(message).toContain('its "‹" is written "&lt;"');
  });
});
