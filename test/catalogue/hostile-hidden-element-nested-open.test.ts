import { HtmlRenderer, Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Left open by custom57 (rev57b F9's fix): the reader of never-shown runs
// (HiddenRuns) takes an element's FIRST end tag of its name for its end, so a
// repository text ending in `<div hidden>` then `<div>` gets one `</div>`,
// which closes the inner one: the hidden outer element still holds your skill.
// A same-name depth count in HiddenRuns.advance (and withoutHidden) is the fix.

/** Depth of `name` elements still open at `needle`, as an HTML reader nests them (start tags minus end tags). */
function depthAt(prompt: string, name: string, needle: string): number {
  const html = new HtmlRenderer().render(new Parser().parse(prompt));
  const at = html.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  const before = html.slice(0, at);
  const opens = before.match(new RegExp(`<${name}[\\s>]`, "g"))?.length ?? 0;
  const closes = before.match(new RegExp(`</${name}\\s*>`, "g"))?.length ?? 0;
  return opens - closes;
}

describe("hostile repository: a never-shown element left open with a same-name element inside", () => {
  for (const tail of [
    "<div hidden>\n<div>\n",
    "<div hidden><div>x</div>\n",
    "<details>\n<details>\n",
  ]) {
    it(`an untrusted AGENTS.md ending in ${JSON.stringify(tail)} leaves your skill outside every one`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/AGENTS.md": `Repo rules.\n${tail}`,
        "agent/AGENTS.md": "USER: never push to main.\n",
        "agent/skills/deploy/SKILL.md":
          "---\nname: deploy\ndescription: Deploy safely; never push to main.\n---\nbody\n",
      });
      const { text } = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
      const name = tail.startsWith("<details") ? "details" : "div";
      expect(depthAt(text, name, "Deploy safely")).toBe(0);
    });
  }
});
