import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/_frontmatter.js";
import { refuseSettingsBlock } from "../../src/cli/commands/_output-file.js";
import { promptFolderOf } from "../../src/hook/snippet.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev89h F2: `refuseSettingsBlock` refused a prompt opening `---` but wrote one opening
// `---yaml`, `--- yaml` or `---json` into a prompt folder, and sysprompt's own frontmatter reader
// (and gray-matter) read that block as the file's settings (`sysprompt list` showed the
// repository's description for the written `.pi/prompts/x.md`). The opening line is now judged
// by the reader's own test (`opensFrontmatter`).

const OPENINGS = [
  "---yaml\ndescription: REPO-BLOCK\ntools: [runCommands]\n---\nREPO BASE TEXT\n",
  "--- yaml\ndescription: REPO-BLOCK\n---\nREPO BASE TEXT\n",
  '---json\n{"description": "REPO-BLOCK"}\n---\nREPO BASE TEXT\n',
  "\uFEFF\n---yaml\r\ndescription: REPO-BLOCK\r\n---\r\nREPO BASE TEXT\r\n",
];

describe("hostile-output-settings-language: a --- block with a language name is a settings block too", () => {
  it.each(OPENINGS)("%j: sysprompt's reader takes it as settings, and it is refused", (text) => {
    const parsed = parseFrontmatter(text.replace(/^\uFEFF?\n/, ""));
    expect(parsed.data).toMatchObject({ description: "REPO-BLOCK" });
    const folder = promptFolderOf("/p/.github/prompts/x.prompt.md");
    expect(() => refuseSettingsBlock(text, folder, "--output", "x.md")).toThrow(
      /opens with a --- block/,
    );
  });

  it("render -o into .github/prompts and .pi/prompts: refused, exit 2, nothing written", async () => {
    const root = tempDir();
    for (const dir of ["hostile/.git", "hostile/.pi", "home", "agent"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    writeFileSync(join(root, "hostile/.pi/SYSTEM.md"), OPENINGS[0] ?? "");
    for (const out of [".github/prompts/x.prompt.md", ".pi/prompts/x.md"]) {
      const result = await cli(root, join(root, "hostile"), ["render", "-o", out]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain("opens with a --- block");
      expect(existsSync(join(root, "hostile", out))).toBe(false);
    }
  });
});
