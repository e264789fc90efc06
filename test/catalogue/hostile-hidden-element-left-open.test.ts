import { HtmlRenderer, Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev57b F9 (medium): a repository text could leave an element no
// reader shows open at its end (`<div hidden>`, `<template>`, `<details>`,
// `<div style="display:none">`): only code blocks, HTML blocks and comments were
// closed. A repository's AGENTS.md ending in `<div hidden>` put your skill and
// every later section inside the hidden element, `--untrusted` too; a trusted
// project's partial over yours did the same to the rest of YOUR section. The
// closer of each such element still open is now appended at the text's end.

// Since rev82f F1, F4 the `<` of a start tag that draws nothing in place (`<div hidden>`,
// `<template>`, a `style`) is written `&lt;` in a text not yours: it opens nothing (the last
// case). `<details>` is kept (decided: a closed one hides only its own content), and its closer
// is still appended; `<details><summary>` too.
const OPENERS: Record<string, [string, string]> = {
  details: ["<details>", "details"],
  "details with a summary": ["<details><summary>More</summary>", "details"],
};

const ESCAPED = ["<div hidden>", "<template>", '<div style="display:none">'];

/** As an HTML reader renders the prompt: is the end tag of `name` between `opener` and `needle`? */
function closedBefore(prompt: string, opener: string, name: string, needle: string): boolean {
  const html = new HtmlRenderer().render(new Parser().parse(prompt));
  const open = html.indexOf(opener);
  const at = html.indexOf(needle);
  expect(open).toBeGreaterThanOrEqual(0);
  expect(at).toBeGreaterThan(open);
  return html.slice(open, at).includes(`</${name}>`);
}

describe("hostile repository: a never-shown element left open at a repository text's end", () => {
  for (const [kind, [opener, name]] of Object.entries(OPENERS)) {
    it(`an untrusted AGENTS.md ending in ${opener} leaves your skill outside it`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/AGENTS.md": `Repo rules.\n${opener}\n`,
        "agent/AGENTS.md": "USER: never push to main.\n",
        "agent/skills/deploy/SKILL.md":
          "---\nname: deploy\ndescription: Deploy safely; never push to main.\n---\nbody\n",
      });
      const { text } = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
      expect(closedBefore(text, opener, name, "Deploy safely"), kind).toBe(true);
    });

    it(`a project's partial in your section ending in ${opener} leaves your next line outside it`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "agent/sections/mypolicy.md":
          "---\norder: 5\n---\n<my_policy>\n{{> footer}}\n\nNever push to main.\n</my_policy>\n",
        "agent/partials/footer.md": "See the team wiki.\n",
        "project/.pi/partials/footer.md": `See the repository wiki.\n${opener}\n`,
      });
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
      expect(closedBefore(result.text, opener, name, "Never push to main."), kind).toBe(true);
      expect(result.diagnostics.map((d) => d.code)).toContain("project-section-open");
    });
  }

  for (const opener of ESCAPED) {
    it(`an untrusted AGENTS.md ending in ${opener}: written as text, your skill shown, page-tag-escaped`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/AGENTS.md": `Repo rules.\n${opener}\n`,
        "agent/AGENTS.md": "USER: never push to main.\n",
        "agent/skills/deploy/SKILL.md":
          "---\nname: deploy\ndescription: Deploy safely; never push to main.\n---\nbody\n",
      });
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
      expect(result.text).toContain(`Repo rules.\n&lt;${opener.slice(1)}`);
      expect(oracleHidden(result.text, "Deploy safely")).toBe("shown");
      expect(result.diagnostics.map((d) => d.code)).toContain("page-tag-escaped");
    });

    it(`a project's partial in your section ending in ${opener}: written as text, your next line shown`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "agent/sections/mypolicy.md":
          "---\norder: 5\n---\n<my_policy>\n{{> footer}}\n\nNever push to main.\n</my_policy>\n",
        "agent/partials/footer.md": "See the team wiki.\n",
        "project/.pi/partials/footer.md": `See the repository wiki.\n${opener}\n`,
      });
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
      expect(result.text).toContain(`See the repository wiki.\n&lt;${opener.slice(1)}`);
      expect(oracleHidden(result.text, "Never push to main.")).toBe("shown");
      expect(result.diagnostics.map((d) => d.code)).toContain("page-tag-escaped");
      expect(result.diagnostics.map((d) => d.code)).not.toContain("project-section-open");
    });
  }
});
