import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../../src/render-system-prompt.js";
import { rulesFixture } from "./_helpers.js";

describe("always rules are deduped by paragraph containment", () => {
  it("against the context files, the appended prompt and the rules kept before them; each drop is an info naming where the text is", async () => {
    const dir = rulesFixture("dedupe-against-context");
    mkdirSync(`${dir}/home/.pi/agent`, { recursive: true });
    const result = await renderSystemPrompt({
      cwd: dir,
      home: `${dir}/home`,
      agentDir: `${dir}/home/.pi/agent`,
      env: {},
      now: "2026-01-15T10:00:00Z",
      machine: { platform: "linux", arch: "x64" },
      appendSystemPrompt: "Only Zed says this.\n",
    });
    const infos = result.diagnostics.filter((d) => d.code === "rule-duplicate");
    expect(infos).toEqual([
      {
        level: "info",
        code: "rule-duplicate",
        message: `rule not inlined: ${dir}/AGENTS.md already holds all of its text, in the same order`,
        path: `${dir}/.cursorrules`,
      },
      {
        level: "info",
        code: "rule-duplicate",
        message: `rule not inlined: ${dir}/AGENTS.md already holds all of its text, in the same order`,
        path: `${dir}/GEMINI.md`,
      },
      {
        level: "info",
        code: "rule-duplicate",
        message:
          "rule not inlined: the appended prompt already holds all of its text, in the same order",
        path: `${dir}/.roorules`,
      },
    ]);
    // .rules holds a paragraph nobody else has: kept whole, though its other paragraph is elsewhere.
    const section = result.sections.find((s) => s.name === "project_rules")?.text ?? "";
    expect(section).toContain(
      `<rule name=".rules" format="zed" path="${dir}/.rules">\nOnly Zed says this.\n\nRun the tests before every commit.\n</rule>`,
    );
    expect(section.match(/<rule /g)).toHaveLength(1);
  });
});
