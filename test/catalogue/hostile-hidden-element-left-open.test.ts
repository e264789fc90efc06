import { HtmlRenderer, Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev57b F9 (medium): a repository text could leave an element no
// reader shows open at its end (`<div hidden>`, `<template>`, `<details>`,
// `<div style="display:none">`): only code blocks, HTML blocks and comments were
// closed. A repository's AGENTS.md ending in `<div hidden>` put your skill and
// every later section inside the hidden element, `--untrusted` too; a trusted
// project's partial over yours did the same to the rest of YOUR section. The
// closer of each such element still open is now appended at the text's end.

const OPENERS: Record<string, [string, string]> = {
  div: ["<div hidden>", "div"],
  template: ["<template>", "template"],
  details: ["<details>", "details"],
  style: ['<div style="display:none">', "div"],
};

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
});
