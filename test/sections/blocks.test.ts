import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { cutBlocks } from "../../src/sections/blocks.js";
import type { RenderResult } from "../../src/types.js";
import { copyScenario, FIXTURES, pinned, tempDir } from "../api/_helpers.js";

/** The blocks' shape without their text, which the join test covers. */
const shape = (r: RenderResult) => r.blocks.map((b) => [b.cache, b.sections]);

/** The sections a block holds are exactly the result's, in order, and its text is theirs. */
function expectWhole(result: RenderResult) {
  expect(result.blocks.map((b) => b.text).join("")).toBe(result.text);
  expect(result.blocks.flatMap((b) => b.sections)).toEqual(result.sections.map((s) => s.name));
  for (const block of result.blocks) {
    const texts = block.sections.map((n) => result.sections.find((s) => s.name === n)?.text);
    expect(block.text.replace(/\n\n$/, "")).toBe(texts.join("\n\n"));
  }
}

describe("RenderResult.blocks", () => {
  it("the builtin prompt: a stable block (with the separator after it), then a session block", async () => {
    const result = await renderSystemPrompt(pinned(tempDir()));
    expect(shape(result)).toEqual([
      ["stable", ["preamble", "tools", "rules", "cwd"]],
      ["session", ["environment", "date"]],
    ]);
    expect(result.blocks[0]?.text.endsWith("</cwd>\n\n")).toBe(true);
    expect(result.blocks[1]?.text.startsWith("<environment>")).toBe(true);
    expect(result.blocks[1]?.text.endsWith("</date>")).toBe(true);
    expectWhole(result);
  });

  it("a volatile project section, a section from code and a custom base prompt each land in their class's block", async () => {
    const root = tempDir();
    const result = await renderSystemPrompt(
      pinned(root, { systemPrompt: "Custom.", sections: { notes: "From code." } }),
    );
    expect(shape(result)).toEqual([
      ["stable", ["system", "cwd", "notes"]],
      ["session", ["environment", "date"]],
    ]);
    expectWhole(result);
    const withBuild = copyScenario("layers", "volatile-last");
    const again = await renderSystemPrompt(pinned(withBuild, { noContextFiles: true }));
    expect(shape(again)).toEqual([
      ["stable", ["preamble", "tools", "rules", "cwd", "team"]],
      ["session", ["environment", "date"]],
      ["volatile", ["build"]],
    ]);
    expectWhole(again);
  });

  it("an empty prompt has no blocks; a prompt of one class has one block without a trailing separator", async () => {
    const root = tempDir();
    const off = (name: string) =>
      writeFileSync(
        join(root, "project", ".pi", "sections", `${name}.md`),
        "---\nenabled: false\n---\n",
      );
    const options = pinned(root);
    mkdirSync(join(root, "project", ".pi", "sections"), { recursive: true });
    for (const name of ["environment", "date"]) off(name);
    const stable = await renderSystemPrompt(options);
    expect(shape(stable)).toEqual([["stable", ["preamble", "tools", "rules", "cwd"]]]);
    expect(stable.blocks[0]?.text).toBe(stable.text);
    for (const name of ["preamble", "tools", "rules", "cwd"]) off(name);
    const empty = await renderSystemPrompt(options);
    expect([empty.text, empty.blocks]).toEqual(["", []]);
  });

  it("join to the text for every fixture project, with and without a tree and a budget that cuts", async () => {
    let checked = 0;
    let cut = 0;
    for (const group of ["layers", "sections", "context", "rules", "skills", "variants"]) {
      for (const scenario of readdirSync(join(FIXTURES, group)).sort()) {
        const root = copyScenario(group, scenario);
        for (const extra of [
          {},
          { workspaceTree: true, treeMtime: 0 },
          { workspaceTree: true, treeMtime: 0, maxPromptTokens: 300, model: "gpt-4o-mini" },
        ]) {
          const result = await renderSystemPrompt(pinned(root, extra));
          expectWhole(result);
          checked++;
          if ((result.budget?.cuts.length ?? 0) > 0) cut++;
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
    expect(cut).toBeGreaterThan(5);
  }, 60_000);
});

describe("cutBlocks", () => {
  const section = (name: string) => ({
    name,
    text: `<${name}>\n${name}\n</${name}>`,
    source: { layer: "builtin" as const },
  });
  it("cuts a run per class change, so a list out of class order still joins to the text", () => {
    const blocks = cutBlocks([
      { section: section("a"), cache: "stable" },
      { section: section("b"), cache: "session" },
      { section: section("c"), cache: "stable" },
    ]);
    expect(blocks).toEqual([
      { cache: "stable", sections: ["a"], text: "<a>\na\n</a>\n\n" },
      { cache: "session", sections: ["b"], text: "<b>\nb\n</b>\n\n" },
      { cache: "stable", sections: ["c"], text: "<c>\nc\n</c>" },
    ]);
    expect(cutBlocks([])).toEqual([]);
  });
});
