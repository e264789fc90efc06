import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A file's bytes decode to well-formed text (bad UTF-8 becomes U+FFFD), but a
// YAML escape can write half a surrogate pair: an untrusted project's Cursor
// rule with `description: "\ud800"` and a Continue rule named "\udc00" put
// lone surrogates into the prompt. Printed, the encoder wrote U+FFFD; in
// `render --json` (and a host's API request) they stayed `\ud800`, which a
// provider's API may refuse whole. Each becomes U+FFFD in the prompt itself.

/** True when `text` holds a surrogate without its partner. */
const lone = (text: string) =>
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

describe("hostile repository: no lone surrogate reaches the prompt", () => {
  it("a rule description and a rule name written with YAML escapes render as U+FFFD", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.cursor/rules/r.mdc":
        '---\ndescription: "half \\ud800 pair"\nglobs: "*.ts"\n---\nBody.\n',
      "project/.continue/rules/c.md":
        '---\nname: "\\udc00 named"\nalwaysApply: true\n---\nAlways.\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(lone(result.text)).toBe(false);
    for (const s of result.sections) expect([s.name, lone(s.text)]).toEqual([s.name, false]);
    expect(result.text).toContain("half \ufffd pair");
    expect(result.text).toContain('name="\ufffd named"');
  });
});
