import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALWAYS_RULE_MARKER } from "../../src/budget/steps.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { rulesFixture } from "../gather/rules/_helpers.js";

describe("the token budget shrinks project_rules", () => {
  it("descriptions of on-demand rules first, then always rules from the outermost folder, each cut visible", async () => {
    const dir = rulesFixture("budget-shrink", "project");
    mkdirSync(`${dir}/agent`, { recursive: true });
    const options = {
      cwd: `${dir}/project/sub`,
      agentDir: `${dir}/agent`,
      home: `${dir}/home`,
      env: {},
      now: "2026-01-15T10:00:00Z",
      machine: { platform: "linux", arch: "x64" },
    } as const;
    const full = await renderSystemPrompt(options);
    const fullRules = full.sections.find((s) => s.name === "project_rules")?.text ?? "";
    // About 970 tokens in full (the temp path varies it a little): the descriptions and one rule must go.
    const result = await renderSystemPrompt({ ...options, maxPromptTokens: 864 });
    const cuts = (result.budget?.cuts ?? []).filter((c) => c.section === "project_rules");
    expect(cuts.map((c) => c.step)).toEqual(["rule-descriptions", "always-rules"]);
    const text = result.sections.find((s) => s.name === "project_rules")?.text ?? "";
    expect(text).toContain("Rule descriptions are left out to fit the token budget");
    expect(text).toContain(`- ui (components/**) — ${dir}/project/sub/.cursor/rules/ui.mdc`);
    expect(fullRules).toContain("the design system has strict rules");
    expect(text).not.toContain("the design system has strict rules");
    // The outermost rule goes first: the project root's .cursorrules; the deeper one stays.
    expect(text).toContain(
      `<rule name=".cursorrules" format="cursor" path="${dir}/project/.cursorrules">\n${ALWAYS_RULE_MARKER}\n\n</rule>`,
    );
    expect(text).toContain("Deep rule paragraph 2");
    expect(result.budget?.fits).toBe(true);
  });
});
