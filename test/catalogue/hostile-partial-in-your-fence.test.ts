import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { placeOf } from "./_commonmark.js";

// Review rev68c F3: a trusted project's partial over yours, balanced on its own (`Example:` /
// a ```` ```` ```` fence around a ```` ``` ```` one), printed inside YOUR fenced block
// (```` ```text ```` / `{{> example}}` / ```` ``` ````): its bare ```` ``` ```` closed your fence and
// its ```` ```` ```` opened one your ```` ``` ```` could not close: your later words and every later
// section were code. The partial was closed and checked alone; it is now judged where your
// template prints it, as a context file's `{{content}}` is (`placePrinted`): its lines that
// would end your fence are written as text. A partial left open at its end (`foo` / ```` ```` ````)
// got a `project-section-open` warning saying "closed there, so it does not run over the text
// after it" while the closer it added was what ran over the rest.

const SECTION = [
  "---",
  "order: 95",
  "---",
  "Example of a commit:",
  "",
  "```text",
  "{{> example}}",
  "```",
  "",
  "QZ-AFTER-FENCE: never push to main.",
  "",
].join("\n");

async function render(partial: string, section = SECTION) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/sections/mysec.md": section,
    "agent/partials/example.md": "fix: thing\n",
    "project/.pi/partials/example.md": partial,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true, configFiles: true }));
}

const BALANCED = "Example:\n````md\n```js\nx()\n```\n````\n";

describe("hostile repository: a project's partial printed inside your fenced block stays inside it", () => {
  for (const [shape, partial] of Object.entries({
    "balanced four-backtick sample": BALANCED,
    "fence left open at its end": "foo\n````",
    "tilde sample": "~~~\n```\n~~~\n",
  })) {
    it(`a ${shape}: your words after your fence and the later sections are not code`, async () => {
      const result = await render(partial);
      expect(placeOf(result.text, "QZ-AFTER-FENCE").block).toBe("paragraph");
      expect(placeOf(result.text, "Current working directory").block).not.toBe("code");
    });
  }

  it("the balanced sample is in your code block, its fence lines written as text", async () => {
    const result = await render(BALANCED);
    expect(placeOf(result.text, "x()").block).toBe("code");
    expect(result.text).toContain("```text\nExample:\n````md\n```js\nx()\n\\```\n\\````\n```\n");
  });

  it("the warning for a partial left open says what holds it inside your fence", async () => {
    const result = await render("foo\n````");
    const open = result.diagnostics.find((d) => d.code === "project-section-open");
    expect(open?.message).toContain("its lines that would end your block are written as text");
    expect(open?.message).not.toContain("closed there, so it does not run over");
  });

  it("a partial printed in no block of yours is printed as it was", async () => {
    const result = await render(
      BALANCED,
      "---\norder: 95\n---\nExample of a commit:\n\n{{> example}}\n\nQZ-AFTER-FENCE: never push to main.\n",
    );
    const mine = result.sections.find((s) => s.name === "mysec")?.text ?? "";
    expect(mine).toContain(BALANCED);
    expect(placeOf(result.text, "QZ-AFTER-FENCE").block).toBe("paragraph");
  });

  it("a partial indented as a standalone call keeps your next line's indent", async () => {
    const result = await render(
      "one\ntwo\n",
      "---\norder: 95\n---\n- item\n\n  {{> example}}\n  QZ-NEXT line\n",
    );
    const mine = result.sections.find((s) => s.name === "mysec")?.text ?? "";
    expect(mine).toContain("  one\n  two\n  QZ-NEXT line");
  });
});
