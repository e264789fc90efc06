import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev68c F1: a repository's `AGENTS.md` or always rule (`--untrusted` too), or a trusted
// project's `.pi/SYSTEM.md` through `{{customPrompt}}`, ending in an inline `<span hidden>`
// (`Build with make; see <span hidden>`), printed by your section with your words right after
// it (`{{content}}` then your next line, or on the same line) hid those words: read alone the
// span ends with its paragraph, so no closer was added, and printed, your line continued that
// paragraph inside the span. A repository text's last paragraph is now judged with your words
// after it, as a project's values and partials are (rev67b F4): its `<` written `&lt;`, with a
// warning, when they would not be shown.

// Since rev82f F1, F4 a `hidden` attribute is not kept in a text not yours: `<span hidden>`'s `<`
// is written `&lt;` with `page-tag-escaped` (it opens nothing); `<details>`, kept, hides what
// follows it, but past its paragraph too (a block to an HTML parser): the closers end it right
// after the text (`</details>`), with no warning, before your words.
const ENDINGS = [
  ["<details>", undefined],
  ["<span hidden>", "page-tag-escaped"],
] as const;

/** The closer after `ending` at the text's end (`<details>`), or its `<` written `&lt;` with `code`. */
function expectEnded(
  result: { text: string; diagnostics: readonly { code: string }[] },
  before: string,
  ending: string,
  code: string | undefined,
) {
  if (code === undefined) expect(result.text).toContain(`${before}${ending}\n<!----></details>`);
  else {
    expect(result.text).toContain(`${before}&lt;${ending.slice(1)}`);
    expect(result.diagnostics.map((d) => d.code)).toContain(code);
  }
}

async function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted, configFiles: true }));
}

const section = (body: string) => `---\norder: 95\n---\nIntro.\n\n${body}`;

describe("hostile repository: a repository text your section prints hides none of your words after it", () => {
  for (const trusted of [false, true]) {
    const how = trusted ? "trusted" : "--untrusted";
    for (const [ending, code] of ENDINGS)
      it(`${how}: an AGENTS.md ending in an inline ${ending}, your line right under {{content}}`, async () => {
        const result = await render(
          {
            "agent/sections/mysec.md": section(
              "{{#each contextFiles}}\n{{content}}\nQZ-TAIL: the above is {{path}}; yours wins.\n\n{{/each}}\n",
            ),
            "project/AGENTS.md": `Build with make; see ${ending}`,
          },
          trusted,
        );
        expect(result.text).toContain("Build with make; see ");
        expect(oracleHidden(result.text, "QZ-TAIL")).toBe("shown");
        expect(oracleHidden(result.text, "Current working directory")).toBe("shown");
        expectEnded(result, "Build with make; see ", ending, code);
      });

    it(`${how}: an AGENTS.md ending in a span, printed mid-line and in a list item`, async () => {
      for (const agents of [
        "see <span hidden>",
        "x\n\n- a <span hidden>",
        "see <details>",
        "x\n\n- a <details>",
      ]) {
        const result = await render(
          {
            "agent/sections/mysec.md": section(
              "{{#each contextFiles}}\nFrom {{path}}: {{content}} (QZ-TAIL: yours wins.)\n{{/each}}\n",
            ),
            "project/AGENTS.md": agents,
          },
          trusted,
        );
        expect(oracleHidden(result.text, "QZ-TAIL"), agents).toBe("shown");
      }
    });

    it(`${how}: an always rule ending in an inline <details> or <span hidden>`, async () => {
      for (const ending of ["<details>", "<span hidden>"]) {
        const result = await render(
          {
            "agent/sections/mysec.md": section(
              "{{#each alwaysRules}}\n{{content}}\nQZ-TAIL: {{name}} is below yours.\n\n{{/each}}\n",
            ),
            "project/.cursor/rules/style.mdc": `---\nalwaysApply: true\n---\nUse tabs; see ${ending}\n`,
          },
          trusted,
        );
        expect(result.text).toContain("Use tabs; see ");
        expect(oracleHidden(result.text, "QZ-TAIL"), ending).toBe("shown");
      }
    });
  }

  for (const [ending, code] of ENDINGS)
    it(`a trusted project's SYSTEM.md ending in ${ending}, printed by your {{customPrompt}}`, async () => {
      const result = await render(
        {
          "agent/sections/mysec.md": section("{{customPrompt}}\nQZ-TAIL-CUSTOM here.\n"),
          "project/.pi/SYSTEM.md": `Base; see ${ending}`,
        },
        true,
      );
      expect(result.text).toContain("Base; see ");
      expect(oracleHidden(result.text, "QZ-TAIL-CUSTOM")).toBe("shown");
      expectEnded(result, "Base; see ", ending, code);
    });

  it("an AGENTS.md whose last paragraph's markup is shown with words after it is printed as written", async () => {
    const result = await render(
      {
        "agent/sections/mysec.md": section(
          "{{#each contextFiles}}\n{{content}}\nQZ-TAIL here.\n\n{{/each}}\n",
        ),
        "project/AGENTS.md":
          "Build.\n\n<details>\n<summary>More</summary>\n\nx\n</details>\n\nSee <b>this</b> and <br> that.",
      },
      false,
    );
    expect(result.text).toContain("See <b>this</b> and <br> that.");
    expect(result.text).toContain("<details>");
    expect(oracleHidden(result.text, "QZ-TAIL")).toBe("shown");
    expect(result.diagnostics.map((d) => d.code)).not.toContain("context-markup-as-text");
  });
});
