import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev102b F6 (low). The indentation taken off your partial block printed inside a
// trusted project's partial was guessed from the blanks before the call in the project's text:
// `  {{#if true}}{{/if}}{{> @partial-block}}` (not standalone: Handlebars indents none of its
// lines) took two spaces off each of your later lines and flattened your nested list. The
// indentation Handlebars gave the call is told in the mark around your block now, and only that
// is taken off.

const BODY = [
  "- USER-ITEM one",
  "  - USER-SUBITEM nested",
  "    - USER-SUBSUBITEM deeper",
  "  - USER-SUBITEM two",
].join("\n");
const SECTION = `---\norder: 5\n---\n<my_policy>\nUSER-SECTION-MARKER keep this.\n\n{{#> policy}}\n${BODY}\n{{/policy}}\nUSER-SECTION-TAIL\n</my_policy>\n`;

async function render(policy: string) {
  const root = tempDir();
  writeFiles(root, {
    "agent/sections/mine.md": SECTION,
    "project/.pi/partials/policy.md": policy,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true }));
}

describe("hostile repository: a project's partial with blanks before a call of your block that is not standalone", () => {
  for (const policy of [
    "PROJECT-BEFORE\n  {{#if true}}{{/if}}{{> @partial-block}}\nPROJECT-AFTER\n",
    "PROJECT-BEFORE\n    {{#if true}}{{/if}}{{> @partial-block}}\nPROJECT-AFTER\n",
    "  {{#if true}}{{/if}}{{> @partial-block}}\n",
    // Standalone: Handlebars writes the blanks before each line, taken off again.
    "PROJECT-BEFORE\n  {{> @partial-block}}\nPROJECT-AFTER\n",
    "PROJECT-BEFORE\n\t{{> @partial-block}}\nPROJECT-AFTER\n",
  ]) {
    it(`keeps your own indentation (${JSON.stringify(policy)})`, async () => {
      const { text } = await render(policy);
      expect(text).toContain(`\n${BODY}\n`);
    });
  }
});
