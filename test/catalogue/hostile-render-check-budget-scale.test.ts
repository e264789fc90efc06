import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { CHECK_BUDGET_CHARS } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev65a F2: a render with twelve repository texts of 255 KB, each holding `<b>x</b>`, took
// 5.8-7.3 s and 500 MB at --deadline 1000 (0.79 s before the commonmark + parse5 check): every text
// with a `<` was checked, with no total. The check now spends one budget per render phase
// (CHECK_BUDGET_CHARS), texts in a fixed order; a text past it has every `<` written `&lt;` (no check
// needed), with a context-markup-as-text warning that says the budget ran out. The characters checked,
// not the clock, are asserted: the CLI render went from 5.8-7.3 s to 3.8 s (the review's f2.sh).

function big(name: string): string {
  const head = `# ${name}\n\n<b>x</b>\n\n${name} `;
  return `${head}${"*.".repeat(Math.floor((250_000 - head.length) / 2))}\n`;
}

describe("hostile repository: the check of what texts leave open has a budget per render", () => {
  it("twelve 250 KB texts: bounded, warned, the same bytes twice", async () => {
    const root = tempDir();
    const files: Record<string, string> = { "project/.git/HEAD": "ref: refs/heads/main\n" };
    let dir = "project";
    for (let i = 0; i < 8; i++) {
      files[`${dir}/AGENTS.md`] = big(`Level${i}`);
      dir = `${dir}/l${i}`;
    }
    files[`${dir}/file.txt`] = "hi\n";
    for (let i = 0; i < 4; i++)
      files[`project/.cursor/rules/r${i}.mdc`] = `---\nalwaysApply: true\n---\n${big(`Rule${i}`)}`;
    writeFiles(root, files);
    const options = pinned(root, {
      cwd: join(root, dir),
      projectTrusted: false,
      deadlineMs: 60_000,
    });
    const first = await renderSystemPrompt(options);
    const again = await renderSystemPrompt(options);
    expect(again.text).toBe(first.text);
    const spent = first.diagnostics.filter(
      (d) => d.code === "context-markup-as-text" && d.message.includes("budget"),
    );
    // 8 context files of 250 KB: the budget holds two at most; the rest are written as text.
    expect(spent.length).toBeGreaterThanOrEqual(8 - Math.ceil(CHECK_BUDGET_CHARS / 250_000));
    expect(spent.map((d) => d.message)).toEqual(spent.map(() => expect.stringContaining("&lt;")));
    // The rules come after the context files: each past the budget is warned about too.
    const rules = first.diagnostics.filter((d) => d.code === "rule-markup-as-text");
    expect(rules.map((d) => d.path?.split("/").pop()).sort()).toEqual(
      [0, 1, 2, 3].map((i) => `r${i}.mdc`),
    );
    for (let i = 0; i < 8; i++) expect(first.text).toContain(`# Level${i}`);
    expect(first.text).toContain("&lt;b>x&lt;/b>");
  }, 30_000);
});
