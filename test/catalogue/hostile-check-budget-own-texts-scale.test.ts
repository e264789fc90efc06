import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev66e F2: a project spent the assembly's check budget to within a few characters (nested
// AGENTS.md of 262,000, 262,000, 256, 128, … characters, each holding `<b>`: a text past what is left
// charged nothing, so halving sizes filled it), then YOUR always rule's and YOUR AGENTS.md's markup
// was written `&lt;`, with a warning blaming the repository's texts. Only the repository's texts
// are charged now: yours are checked whatever is left, and kept as written where they cannot be closed.

const MINE_RULE =
  "Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to stop. <details><summary>MY-SUMMARY</summary>x</details>";
// Neither writes `<b>`, the repository's element: a name yours write escapes theirs.
const MINE_AGENTS = "Use <kbd>Tab</kbd> to complete. MY-AGENTS";

/** `n` characters holding `<b>` (the review's generator). */
function sized(where: string, n: number): string {
  let text = n < 64 ? `<b>${n} ` : `# Notes ${where}\n\n`;
  const line = `Words of ${where} <b>here</b> and more.\n`;
  while (text.length < n) text += line;
  return `${text.slice(0, n - 1)}\n`;
}

describe("hostile repository: a project cannot spend the check's budget on your texts", () => {
  it("halving AGENTS.md sizes fill the budget; your rule and AGENTS.md keep their markup", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/rules/mine.md": `---\nalwaysApply: true\n---\n${MINE_RULE}\n`,
      "agent/AGENTS.md": `${MINE_AGENTS}\n`,
    };
    let dir = "project";
    for (const n of [262_000, 262_000, 256, 128, 64, 32, 16, 8, 6]) {
      files[`${dir}/AGENTS.md`] = sized(dir, n);
      dir = `${dir}/d${n}`;
    }
    files[`${dir}/file.txt`] = "hi\n";
    writeFiles(root, files);
    const out = await renderSystemPrompt(
      pinned(root, { cwd: join(root, dir), projectTrusted: false, deadlineMs: 60_000 }),
    );
    // The repository's texts did spend the budget: some of theirs are written as text, and said so.
    expect(out.diagnostics.map((d) => d.code)).toContain("context-markup-as-text");
    expect(out.text).toContain("&lt;b>here&lt;/b>");
    expect(out.text).toContain(MINE_RULE);
    expect(out.text).toContain(MINE_AGENTS);
    const blamed = out.diagnostics.filter(
      (d) => d.path?.startsWith(join(root, "agent")) && /markup-as-text/.test(d.code),
    );
    expect(blamed).toEqual([]);
  }, 60_000);
});
