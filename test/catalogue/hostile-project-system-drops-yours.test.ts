import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import type { SystemPromptOptions } from "../../src/options.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev52b F9 (medium): a trusted project's .pi/SYSTEM.md or
// .pi/SYSTEM_TEMPLATE.md is the custom base prompt, which takes the place of
// every base section: your rules.md override and your own `base: true`
// section were gone with no word, and so were your --guideline texts. Your
// base sections now give one `user-text-left-out` warning naming them and the
// way back; your guidelines, typed for this run, are kept after the project's
// base prompt, in the addendum.

const RULES = "---\n---\n{{> base}}\n- MY-RULE never push to main\n";
const MINE = "---\nbase: true\norder: 5\n---\nMY-BASE my own base section\n";

async function render(files: Record<string, string>, extra: SystemPromptOptions = {}) {
  const root = tempDir();
  writeFiles(root, { "project/AGENTS.md": "hi\n", ...files });
  const result = await renderSystemPrompt(pinned(root, { projectTrusted: true, ...extra }));
  const left = result.diagnostics.filter((d) => d.code === "user-text-left-out");
  return { root, text: result.text, left };
}

describe("hostile repository: a trusted project's SYSTEM.md drops your own base sections", () => {
  for (const file of ["SYSTEM.md", "SYSTEM_TEMPLATE.md"]) {
    it(`${file}: your rules.md override and your base: true section are named in one warning`, async () => {
      const yours = { "agent/sections/rules.md": RULES, "agent/sections/mybase.md": MINE };
      const alone = await render(yours);
      expect(alone.text).toContain("MY-RULE");
      expect(alone.text).toContain("MY-BASE");
      expect(alone.left).toEqual([]);
      const { root, text, left } = await render({
        ...yours,
        [`project/.pi/${file}`]: "You are the project's agent. PROJECT-SYS\n",
      });
      expect(text).toContain("PROJECT-SYS");
      expect(text).not.toContain("MY-RULE");
      expect(left.map((d) => [d.level, d.path])).toEqual([
        ["warning", join(root, `project/.pi/${file}`)],
      ]);
      const message = left[0]?.message ?? "";
      expect(message).toContain(`"mybase" (${join(root, "agent/sections/mybase.md")})`);
      expect(message).toContain(`"rules" (${join(root, "agent/sections/rules.md")})`);
      expect(message).toContain("--untrusted");
      // Untrusted, the project's file is not read: yours are back, no warning.
      const untrusted = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
      expect(untrusted.text).toContain("MY-RULE");
      expect(untrusted.diagnostics.filter((d) => d.code === "user-text-left-out")).toEqual([]);
    });
  }

  it("names at most five of your base sections and counts the rest", async () => {
    const yours: Record<string, string> = {};
    for (const n of [1, 2, 3, 4, 5, 6, 7]) yours[`agent/sections/mine${n}.md`] = MINE;
    const { left } = await render({ ...yours, "project/.pi/SYSTEM.md": "Project system.\n" });
    expect(left).toHaveLength(1);
    expect(left[0]?.message).toContain('"mine5"');
    expect(left[0]?.message).not.toContain('"mine6"');
    expect(left[0]?.message).toContain("and 2 more");
  });

  it("your switched-off base section, a project's own base section, or your SYSTEM.md: no warning", async () => {
    const { left } = await render({
      "agent/sections/mybase.md": "---\nbase: true\nenabled: false\n---\nMY-BASE\n",
      "project/.pi/sections/theirs.md": "---\nbase: true\n---\nTHEIRS\n",
      "project/.pi/SYSTEM.md": "Project system.\n",
    });
    expect(left).toEqual([]);
    const own = await render({
      "agent/sections/mybase.md": MINE,
      "agent/SYSTEM.md": "My own system.\n",
    });
    expect(own.left).toEqual([]);
  });

  it("your --guideline texts survive the project's SYSTEM.md, after it, once", async () => {
    const guide = { promptGuidelines: ["GUIDE-MARK always run tests"] };
    const { text, left } = await render({ "project/.pi/SYSTEM.md": "Project system.\n" }, guide);
    expect(text.split("GUIDE-MARK")).toHaveLength(2);
    expect(text.indexOf("GUIDE-MARK")).toBeGreaterThan(text.indexOf("Project system."));
    expect(left).toEqual([]);
    // A project's SYSTEM_TEMPLATE.md that prints the rules itself, or one that fails (the builtin
    // base comes back): still once.
    for (const body of ["Project.\n{{#each rules}}- {{this}}\n{{/each}}", "Project {{#if}}\n"]) {
      const t = await render({ "project/.pi/SYSTEM_TEMPLATE.md": body }, guide);
      expect(t.text.split("GUIDE-MARK"), body).toHaveLength(2);
    }
    // A project's addendum switched off then leaves them out with a warning naming them.
    const off = await render(
      {
        "project/.pi/SYSTEM.md": "Project system.\n",
        "project/.pi/sections/addendum.md": "---\nenabled: false\n---\n",
      },
      guide,
    );
    expect(off.text).not.toContain("GUIDE-MARK");
    expect(off.left).toHaveLength(1);
    expect(off.left[0]?.message).toContain('"- GUIDE-MARK always run tests"');
    // Without a project's base prompt, they stay in the rules section.
    const plain = await render({}, guide);
    expect(plain.text).toMatch(/<rules>[\s\S]*GUIDE-MARK[\s\S]*<\/rules>/);
  });
});
