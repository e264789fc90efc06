import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev52b F13 (medium): a trusted project's preset `agentSends: [usec, cwd]`
// switched off YOUR section `usec` (your agent dir's sections/usec.md) with no
// word: only five builtin names were refused there. A project's agentSends may
// not name a section a layer of yours defines or changes; the name is ignored
// with `preset-project-agent-sends` naming your file, the rest still apply.

const YOURS = "---\norder: 65\n---\nMY-SECTION: never push to main.\n";

const OWN: Record<string, string> = {
  "agent/sections/usec.md": YOURS,
  "agent/sections/cwd.md": "---\n---\n{{> base}}\nMY-CWD-NOTE.\n",
};

async function render(files: Record<string, string>, model?: string, own = OWN) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "Repo notes.\n",
    ...own,
    ...files,
  });
  const result = await renderSystemPrompt(
    pinned(root, { projectTrusted: true, ...(model ? { model } : {}) }),
  );
  const warned = result.diagnostics.filter((d) => d.code === "preset-project-agent-sends");
  return { root, text: result.text, warned };
}

describe("hostile repository: a project preset's agentSends never leaves out your own section", () => {
  it("a project's agentSends naming your section and your override of a builtin: both kept, warned", async () => {
    const { root, text, warned } = await render({
      "project/.pi/agents/pi.yaml": "agentSends: [usec, cwd, date]\n",
    });
    expect(text).toContain("MY-SECTION: never push to main.");
    expect(text).toContain("MY-CWD-NOTE.");
    // A section no layer of yours has, it may still say the agent sends.
    expect(text).not.toContain("<date>");
    expect(warned.map((d) => d.path)).toEqual([join(root, "project/.pi/agents/pi.yaml")]);
    expect(warned[0]?.message).toContain(`usec (${join(root, "agent/sections/usec.md")})`);
    expect(warned[0]?.message).toContain(`cwd (${join(root, "agent/sections/cwd.md")})`);
    expect(warned[0]?.message).not.toContain("date");
  });

  it("a project's preset over yours is judged; your own preset alone still may", async () => {
    const over = await render({
      "agent/agents/pi.yaml": "agentSends: [date]\n",
      "project/.pi/agents/pi.yaml": "agentSends: [usec]\n",
    });
    expect(over.text).toContain("MY-SECTION");
    expect(over.warned).toHaveLength(1);
    const mine = await render({ "agent/agents/pi.yaml": "agentSends: [usec]\n" });
    expect(mine.text).not.toContain("MY-SECTION");
    expect(mine.warned).toEqual([]);
  });

  // Review rev54a F6 (low, false positive): your variant `cwd@gpt.md` counted as your
  // section for a Claude model it does not serve; the project's `agentSends: [cwd]`
  // was refused and the builtin cwd (not your text) sent twice. Judged on the version that serves.
  it("a variant of yours that does not serve this model is not your section", async () => {
    const files = { "project/.pi/agents/pi.yaml": "agentSends: [cwd]\n" };
    const own = {
      "agent/sections/usec.md": YOURS,
      "agent/sections/cwd@gpt.md": '---\nmodels: ["gpt-*"]\n---\nMY-CWD-VARIANT {{cwd}}\n',
    };
    const claude = await render(files, "claude-sonnet-4", own);
    expect(claude.warned).toEqual([]);
    expect(claude.text).not.toContain("<cwd>");
    const gpt = await render(files, "gpt-4o", own);
    expect(gpt.text).toContain("MY-CWD-VARIANT");
    expect(gpt.warned[0]?.message).toContain(
      `cwd (${join(gpt.root, "agent/sections/cwd@gpt.md")})`,
    );
  });
});
