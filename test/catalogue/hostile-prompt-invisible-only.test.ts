import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { refuseEmptyPrompt } from "../../src/cli/commands/_output-file.js";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev91a F3: a prompt of only invisible characters (a trusted project switched off every
// builtin section and added one of U+200B U+2060) was written by `export`, exit 0, with no
// `prompt-empty`: the check was `trim()`, which keeps U+200B, U+2060, U+00AD, U+3164 and the tag
// characters. A prompt with no character that shows is empty (`hasVisible`, src/_text.ts).

const INVISIBLE = [
  "\u200b\u2060",
  "\u00ad",
  "\u3164",
  "\u{e0041}\u{e007f}",
  " \u200b\n\ufeff\u3000",
];

describe("hostile repository: a prompt of invisible characters is empty", () => {
  it("refuseEmptyPrompt refuses it; a prompt that shows a character is written", () => {
    for (const text of INVISIBLE)
      expect(() => refuseEmptyPrompt(text, "--out", "prompt.md")).toThrow(/the prompt is empty/);
    expect(() => refuseEmptyPrompt("\u200bx", "--out", "prompt.md")).not.toThrow();
    expect(() => refuseEmptyPrompt("é", "--out", "prompt.md")).not.toThrow();
  });

  it("a render of only such a section says prompt-empty", async () => {
    const root = tempDir();
    const builtins = readdirSync(join(import.meta.dirname, "../../prompts/sections"))
      .filter((f) => f.endsWith(".md") && !f.includes("@"))
      .map((f) => f.slice(0, -3));
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "home/.keep": "",
    };
    for (const n of builtins) files[`project/.pi/sections/${n}.md`] = "---\nenabled: false\n---\n";
    files["project/.pi/sections/zz.md"] = "---\ntag: false\n---\n\u200b\u2060\n";
    writeFiles(root, files);
    const out = await renderSystemPrompt({
      cwd: join(root, "project"),
      home: join(root, "home"),
      projectTrusted: true,
    });
    expect(out.diagnostics.map((d) => d.code)).toContain("prompt-empty");
  });
});
