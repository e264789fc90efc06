import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/_frontmatter.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `---json` frontmatter was parsed with JSON.parse and no limit but the
// block's 32 KB: lists nested 15,000 deep overflowed the stack where the
// value was later copied or quoted. With --untrusted, one such rule file
// failed the rules step whole (every rule of the project lost), and
// `sysprompt list` crashed. JSON is YAML's flow style: the YAML limits now
// hold for it too, before the parse.

const NESTED = `${"[".repeat(15_000)}${"]".repeat(15_000)}`;

function write(root: string, path: string, text: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe("hostile repository: JSON frontmatter nested deep", () => {
  it("is refused before the parse, located", () => {
    const parsed = parseFrontmatter(`---json\n{"description": ${NESTED}}\n---\nBody.\n`, "/p/r.md");
    expect(parsed.ok).toBe(false);
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ["frontmatter-yaml", 2, 31],
    ]);
    expect(parsed.body).toBe("Body.\n");
    // Shallow JSON still reads.
    expect(parseFrontmatter('---json\n{"order": [1, [2]]}\n---\nx\n').data).toEqual({
      order: [1, [2]],
    });
  });

  it("a rule file of it, untrusted: the other rule files still load", async () => {
    const root = tempDir();
    write(root, "project/.git/HEAD", "ref: refs/heads/main\n");
    write(
      root,
      "project/.cursor/rules/deep.mdc",
      `---json\n{"alwaysApply": ${NESTED}}\n---\nDeep.\n`,
    );
    write(root, "project/.windsurfrules", "Plain rule text.\n");
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.steps.filter((s) => s.status === "failed")).toEqual([]);
    expect(result.text).toContain("Plain rule text.");
  }, 60_000);
});
