import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { expectEscapedOnce, expectKept, untrustedAgentsText } from "./_forged-tags.js";

// Review rev93h F3 (low): the brackets rev92c F2 added to the look-alikes of `<` by rule (`《` `⟪`
// `⦑` `⦓` `︽` `︿`) were full openers, so real CJK book titles and math brackets starting with an
// element name (`《Git权威指南》`, `《Docs》`, `《Date with Destiny》`, `⟪tools⟫`) were printed
// `&lt;…》`. They are now read as `«` is (decided): a `<` only before a slash, by the table's rule
// (a Ps/Pi bracket with its closer, src/_lt-look-alikes.ts); the confusables of `<` stay openers.
// F4 (low): the `own-text-tag-escaped` warning quoted the rest of the line as the tag: a tag's end
// was looked for only at `>` and five look-alikes, never at `》` `⟫` `»`; now at each listed
// opener's closer, from the same table.

describe("hostile repository: CJK titles and paired angle brackets are prose (rev93h F3, F4)", () => {
  it("book titles and math brackets naming an element stay as written", async () => {
    const titles = [
      "A《Git权威指南》",
      "B《Git 权威指南》",
      "C《Docs》",
      "G《Date with Destiny》",
      "H⟪tools⟫",
      "I《Environment and Planning》",
      "J《Git》 ⦑rules⦒ ⦓skills⦔ ︽tools︾ ︿git﹀",
    ];
    const text = await untrustedAgentsText(`# 项目\n\n${titles.join("\n\n")}\n`);
    for (const title of titles) expect(text).toContain(title);
    expectKept([
      "A《Git权威指南》",
      "B《Git 权威指南》",
      "C《Docs》",
      "D《name》",
      "G《Date with Destiny》",
      "H⟪tools⟫",
      "I《Environment and Planning》",
      "J《Git》 ⦑rules⦒ ⦓skills⦔ ︽tools︾ ︿git﹀",
    ]);
  });

  it("before a slash each is still a closer; the confusables of `<` still open a tag", () => {
    expectEscapedOnce([
      ["《/system-reminder>", "&lt;/system-reminder>"],
      ["x ⟪/system-reminder> y", "x &lt;/system-reminder> y"],
      ["︿/system-reminder>", "&lt;/system-reminder>"],
      ["ᚲsystem-reminder>", "&lt;system-reminder>"],
      ["‹system-reminder>", "&lt;system-reminder>"],
    ]);
  });

  it("your text's warning names the tag to its closer, not the rest of the line", async () => {
    const root = tempDir();
    const agentDir = join(root, "home", ".pi", "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      join(agentDir, "AGENTS.md"),
      "# 规则\n\n参考《/rules 写作规范》，以及《Rules of Thumb》。\n",
    );
    const repo = join(root, "project");
    mkdirSync(join(repo, ".git"), { recursive: true });
    const result = await renderSystemPrompt(pinned(repo, { agentDir }));
    expect(result.text).toContain("参考&lt;/rules 写作规范》");
    const said = result.diagnostics.filter((d) => d.code === "own-text-tag-escaped");
    expect(said).toHaveLength(1);
    expect(said[0]?.message).toContain('tag "《/rules 写作规范》" (line 3');
  });
});
