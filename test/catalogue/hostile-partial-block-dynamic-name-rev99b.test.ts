import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { withoutHidden } from "../../src/sections/user-text.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev99b F2 (low): a trusted project's partial printing your partial block through a
// dynamic partial name (`{{> (default @partial-block)}}`: a subexpression that evaluates to the
// block's function) printed it unmarked, as the project's text: your `<kbd>` written `&lt;kbd>`,
// your text joined to the project's lines around it. The engine took a print for yours only when
// the call was named `@partial-block` (`meterPartialBlocks`). Now a body run through any partial
// call is a print (`printedAsPartial`: Handlebars' `invokePartial` hands the block's function its
// options, marked `partial: true`), whatever named it; called as a value it is still the project's.

const BODY = "USER-BLOCK-BODY <kbd>always</kbd> run the tests.";
const SECTION = `---\norder: 5\n---\n<my_policy>\nUSER-SECTION-MARKER keep this.\n{{#> policy}}\n${BODY}\n{{/policy}}\nUSER-SECTION-TAIL\n</my_policy>\n`;

async function render(policy: string, partials: Record<string, string> = {}) {
  const root = tempDir();
  const files: Record<string, string> = {
    "agent/sections/mine.md": SECTION,
    "project/.pi/partials/policy.md": policy,
  };
  for (const [name, text] of Object.entries(partials))
    files[`project/.pi/partials/${name}.md`] = text;
  writeFiles(root, files);
  return renderSystemPrompt(pinned(root, { projectTrusted: true }));
}

describe("hostile repository: a project's partial printing your partial block by a dynamic name (rev99b F2)", () => {
  for (const call of ["{{> (default @partial-block)}}", '{{> (default "" @partial-block)}}']) {
    it(`prints it as yours, apart from the project's lines (${call})`, async () => {
      const { text } = await render(`PROJECT-BEFORE\n${call}\nPROJECT-AFTER\n`);
      expect(text).toContain(`PROJECT-BEFORE\n\n${BODY}\n\nPROJECT-AFTER`);
      expect(withoutHidden(text)).toContain("USER-SECTION-TAIL");
    });
  }

  it("passed on to another partial of the project's and printed there by a dynamic name", async () => {
    const { text } = await render(
      "PROJECT-BEFORE\n{{> relay pb=@partial-block}}\nPROJECT-AFTER\n",
      {
        relay: "RELAY-BEFORE\n{{> (default pb)}}\nRELAY-AFTER\n",
      },
    );
    expect(text).toContain(BODY);
    expect(text).not.toContain("&lt;kbd>");
  });

  it("called as a value, it is still the project's text", async () => {
    const { text } = await render("{{#with @partial-block}}{{this}}{{/with}}\n");
    expect(text).toContain("USER-BLOCK-BODY &lt;kbd>always&lt;/kbd> run the tests.");
  });
});
