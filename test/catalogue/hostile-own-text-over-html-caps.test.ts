import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev64b F2 (medium): your own texts were closed as a repository's are, and past what one
// HTML reading takes (20,000 `<`, a MiB, 40,000 elements) the closers fell back to writing every
// `<` of them as `&lt;`, silently: your SYSTEM.md, APPEND_SYSTEM.md or --append-system-prompt
// file holding `<important>` and 10,001 `<kbd>` was printed `&lt;important>`. Markup is written as
// text only for text that is not yours; yours is printed as you wrote it, with a
// `user-text-unread` warning naming the file.

const HEAD = "<important>\nUSER-IMPORTANT-MARKER: never push to main.\n</important>\n\n";
/** 20,002 `<` besides the head's: past the 20,000 one reading takes. */
const OVER_TAGS = `${HEAD}${"Use <kbd>Ctrl</kbd>.\n\n".repeat(10_001)}`;
/** Few `<`, 45,000 paragraphs: past the 40,000 elements one reading makes (a file is at most a MiB). */
const OVER_ELEMENTS = `${HEAD}${Array.from({ length: 45_000 }, (_, i) => `Rule ${i}.\n\n`).join("")}`;

function world(files: Record<string, string>, extra: Parameters<typeof pinned>[1] = {}) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return { root, options: pinned(root, { noContextFiles: true, ...extra }) };
}

async function expectKept(options: Parameters<typeof renderSystemPrompt>[0], path?: string) {
  const result = await renderSystemPrompt(options);
  expect(result.text).toContain(HEAD);
  expect(result.text).not.toContain("&lt;important>");
  expect(result.text).not.toContain("&lt;kbd>");
  const unread = result.diagnostics.filter((d) => d.code === "user-text-unread");
  expect(unread.map((d) => d.path)).toEqual([path]);
  expect(unread[0]?.level).toBe("warning");
}

describe("your own text past the HTML reader's caps is printed as you wrote it, with a warning", () => {
  for (const [name, text] of [
    ["20,002 <", OVER_TAGS],
    ["45,000 paragraphs", OVER_ELEMENTS],
  ] as const) {
    it(`your SYSTEM.md, ${name}`, async () => {
      const { root, options } = world({ "agent/SYSTEM.md": text });
      await expectKept(options, join(root, "agent", "SYSTEM.md"));
    });

    it(`your APPEND_SYSTEM.md, ${name}`, async () => {
      const { root, options } = world({ "agent/APPEND_SYSTEM.md": text });
      await expectKept(options, join(root, "agent", "APPEND_SYSTEM.md"));
    });

    it(`your --append-system-prompt file, ${name}`, async () => {
      const { root, options } = world({ "home/notes/mine.md": text });
      await expectKept(
        { ...options, appendSystemPrompt: [join(root, "home", "notes", "mine.md")] },
        join(root, "home", "notes", "mine.md"),
      );
    });
  }

  it("your --system-prompt text, 20,002 <: kept, the warning names no file", async () => {
    const { options } = world({});
    await expectKept({ ...options, systemPrompt: OVER_TAGS });
  });

  it("the repository's text past the caps still has its markup written as text", async () => {
    const { root, options } = world(
      { "project/.pi/APPEND_SYSTEM.md": OVER_TAGS },
      { projectTrusted: true },
    );
    const result = await renderSystemPrompt(options);
    expect(result.text).toContain("&lt;important>");
    expect(result.text).toContain(
      `<repository_append path="${join(root, "project", ".pi", "APPEND_SYSTEM.md")}">`,
    );
    expect(result.diagnostics.map((d) => d.code)).not.toContain("user-text-unread");
  });
});
