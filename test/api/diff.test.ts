import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSections } from "../../src/diff.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { copyScenario, pinned, tempDir } from "./_helpers.js";

const s = (name: string, text: string) => ({ name, text });

describe("diffSections", () => {
  it("undefined when nothing changed (order does not matter)", () => {
    expect(diffSections([s("a", "1"), s("b", "2")], [s("b", "2"), s("a", "1")])).toBeUndefined();
    expect(diffSections([], [])).toBeUndefined();
  });

  it("the new text for changed and added sections, null for removed ones", () => {
    expect(
      diffSections(
        [s("preamble", "P"), s("rules", "old rules"), s("date", "d1")],
        [s("preamble", "P"), s("rules", "new rules"), s("skills", "S")],
      ),
    ).toEqual({ rules: "new rules", skills: "S", date: null });
  });

  it("between two renders a day apart, only the date section", async () => {
    const root = tempDir();
    const before = await renderSystemPrompt(pinned(root));
    const after = await renderSystemPrompt(pinned(root, { now: "2026-01-16T10:00:00Z" }));
    expect(diffSections(before.sections, after.sections)).toEqual({
      date: "<date>\nToday's date: 2026-01-16\n</date>",
    });
  });

  it("a custom base prompt and a kept preamble are two sections: an edit to either is seen", async () => {
    const root = copyScenario("layers", "custom-base-keeps-preamble");
    const options = pinned(root, { noContextFiles: true });
    const pi = join(root, "project", ".pi");
    const first = await renderSystemPrompt(options);
    expect(first.sections.slice(0, 2).map((x) => [x.name, x.text])).toEqual([
      ["system", "You are the release assistant of this project."],
      ["preamble", "House style: short sentences."],
    ]);

    writeFileSync(
      join(pi, "sections", "preamble.md"),
      "---\nbase: false\n---\nHouse style: none.\n",
    );
    const second = await renderSystemPrompt(options);
    expect(diffSections(first.sections, second.sections)).toEqual({
      preamble: "House style: none.",
    });

    writeFileSync(join(pi, "SYSTEM.md"), "You are the docs assistant.\n");
    const third = await renderSystemPrompt(options);
    expect(diffSections(second.sections, third.sections)).toEqual({
      system: "You are the docs assistant.",
    });
  });
});
