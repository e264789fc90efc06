import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { watchTargets } from "../../src/author/watch/_watch-targets.js";
import { RULE_ENTRY_NAMES } from "../../src/gather/rules/index.js";
import { preparePrompt } from "../../src/render-system-prompt.js";
import { rulesFixture } from "../gather/rules/_helpers.js";

describe("watch sees rule files", () => {
  it("watches each project folder for rule entries and every folder a rule file was found in", async () => {
    const dir = rulesFixture("every-format", "project");
    mkdirSync(`${dir}/agent`, { recursive: true });
    const options = {
      cwd: `${dir}/project/sub`,
      agentDir: `${dir}/agent`,
      home: `${dir}/home`,
      env: {},
      now: "2026-01-15T10:00:00Z",
      machine: { platform: "linux", arch: "x64" },
    } as const;
    const { targets } = await watchTargets(options, await preparePrompt(options));
    const ruleWatched = targets.filter((t) => t.names === RULE_ENTRY_NAMES).map((t) => t.dir);
    expect(ruleWatched).toContain(`${dir}/project`);
    expect(ruleWatched).toContain(`${dir}/project/sub`);
    const folders = targets.filter((t) => t.names === undefined).map((t) => t.dir);
    for (const d of [
      `${dir}/project/sub/.cursor/rules`,
      `${dir}/project/sub/.cursor/rules/web`,
      `${dir}/project/.kiro/steering`,
      `${dir}/agent/rules`,
    ]) {
      expect(folders).toContain(d);
    }
    expect([...RULE_ENTRY_NAMES].sort()).toEqual([
      ".claude",
      ".cline",
      ".clinerules",
      ".continue",
      ".cursor",
      ".cursorrules",
      ".gemini",
      ".github",
      ".kiro",
      ".roo",
      ".roorules",
      ".rules",
      ".windsurf",
      ".windsurfrules",
      "AGENT.md",
      "AGENTS.local.md",
      "CLAUDE.local.md",
      "GEMINI.md",
    ]);
  });
});
