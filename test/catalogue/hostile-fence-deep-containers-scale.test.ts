import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";
import { placeOf } from "./_commonmark.js";

// A text can open a block quote or list item per character: 256 KiB of `>`
// (or of `-\t`), then a fence, leaves the fence open inside ~262,000 of them.
// The closer was written inside them all, a line of 512 KiB, and each text
// came out two or three times its size: eleven such AGENTS.md along the cwd
// and four always-apply rules made an 8 MiB prompt in 10.6 s (7.3 s of CPU,
// 358 MB), and the prompt-too-large guard then left out project_rules, the
// user's own rule with it. A closer deeper than a few containers is now a
// thematic break at the line's start: it continues none of them, so the
// outermost ends there, and every block inside it.

const KIB = 1024;

const SHAPES: Record<string, (size: number) => string> = {
  "block quotes": (n) => `${">".repeat(n)}\`\`\`\n`,
  "spaced block quotes": (n) => `${"> ".repeat(n / 2)}\`\`\`\n`,
  "list items by tabs": (n) => `${"-\t".repeat(n / 2)}\`\`\`\n`,
  "quoted list items": (n) => `${"> - ".repeat(n / 4)}~~~~\n`,
  "an HTML comment in items": (n) => `${"1. ".repeat(n / 3)}<!--\n`,
};

describe("hostile repository: a fence under thousands of containers gets a short closer", () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`${name}: 256 KiB closed by a few bytes, in bounded CPU`, async () => {
      const text = shape(256 * KIB);
      const { cpuMs, value } = await cpuTimed(() => closeOpenBlocks(text));
      // Nested past what the renderer checking the closers is given (rev64b F1), markup is written as text.
      expect(value.startsWith(text.replaceAll("<", "&lt;"))).toBe(true);
      // A comment's closer as a line of its own (`-->`) and, as it arrives in a paragraph
      // (`--&gt;`), again after an empty comment, an HTML block (`<!---->-->`).
      expect(value.length - text.length).toBeLessThan(24);
      expect(cpuMs).toBeLessThan(3000);
    });

    it(`${name}: CommonMark's parser reads the next line as a top-level heading`, () => {
      // Deep enough for the short closer (the parser is slow on the full size).
      const closed = closeOpenBlocks(shape(4 * KIB));
      expect(placeOf(`${closed}\n# MARKER`, "MARKER")).toEqual({
        block: "heading",
        containers: [],
      });
    });
  }

  it("eleven AGENTS.md and four rules of 250 KiB each: the user's own rule is kept", async () => {
    const root = tempDir();
    const size = 250 * KIB;
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/rules/mine.md": "---\nalwaysApply: true\n---\nMINE-RULE: never force-push.\n",
    };
    let dir = "project";
    for (let i = 0; i < 11; i++) {
      // Each a little different, so that none is left out as a duplicate of another.
      files[`${dir}/AGENTS.md`] = `${">".repeat(size - i)}\`\`\`\n`;
      if (i < 10) dir = `${dir}/d${i}`;
    }
    for (let i = 0; i < 4; i++)
      files[`project/.cursor/rules/r${i}.mdc`] =
        `---\nalwaysApply: true\n---\n${"-\t".repeat(size / 2 - i)}\`\`\`\n`;
    writeFiles(root, files);
    const options = pinned(root, {
      projectTrusted: false,
      cwd: join(root, dir),
      deadlineMs: 99_999_999_999,
    });
    const { cpuMs, value } = await cpuTimed(() => renderSystemPrompt(options));
    expect(value.diagnostics.map((d) => d.code)).not.toContain("prompt-too-large");
    expect(value.text).toContain("MINE-RULE: never force-push.");
    // 2 MiB of context files and 1 MiB of rules at most, the closers a few bytes each.
    expect(value.text.length).toBeLessThan(3.5 * KIB * KIB);
    expect(cpuMs).toBeLessThan(8000);
  });
});
