import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { depthAt } from "./_commonmark.js";

// Left open by custom57 (rev57b F9's fix): the reader of never-shown runs
// (HiddenRuns) took an element's FIRST end tag of its name for its end, so a
// repository text ending in `<div hidden>` then `<div>` got one `</div>`,
// which closed the inner one: the hidden outer element still held your skill.
// Now HiddenRuns and withoutHidden count the same-name elements inside.

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
