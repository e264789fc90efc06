import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// A repository's always rule was cut only by putting a marker in the place
// of its text, and only when that text was longer than the marker. Review
// rev36d (b3, medium, untrusted): 950 always rules of one short line under
// 180-character names kept an untrusted prompt near 193,000 tokens under
// --max-tokens 30,000, and fitting cut your skill for nothing. Past the
// markers and the on-demand lines, the repository's always rules now go
// whole, one by one, outermost first, before any text of yours.

const USER_AGENTS = "USER-AGENTS-MARKER always use tabs.";
const USER_RULE = "USER-ALWAYS-RULE never push to main.";
const USER_SKILL = "USER-SKILL-MARKER deploy the staging cluster safely";

describe("hostile repository: the token budget leaves the repository's short always rules out before your text", () => {
  it("600 one-line always rules under long names go whole, as many as needed; yours stay", async () => {
    const root = tempDir();
    const long = (i: number) => `rule-${i}-`.padEnd(180, "x");
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/AGENTS.md": `${USER_AGENTS}\n`,
      "agent/rules/mine.md": `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
      "agent/skills/myskill/SKILL.md": `---\nname: myskill\ndescription: ${USER_SKILL}\n---\nbody\n`,
    };
    for (const [dir, ext, head] of [
      [".cursor/rules", ".mdc", "---\nalwaysApply: true\n---\n"],
      [".clinerules", ".md", ""],
      [".roo/rules", ".md", ""],
    ] as const) {
      for (let i = 0; i < 200; i++)
        files[`project/${dir}/${long(i)}${ext}`] = `${head}Keep it short ${dir} ${i}.\n`;
    }
    writeFiles(root, files);
    const options = pinned(root, { projectTrusted: false });
    const whole = await renderSystemPrompt(options);
    expect(whole.text.match(/Keep it short/g)?.length).toBe(600);
    const fitted = await renderSystemPrompt({ ...options, maxPromptTokens: 15_000 });
    expect(fitted.budget?.initialTokens).toBeGreaterThan(30_000);
    expect(fitted.budget?.fits).toBe(true);
    expect(fitted.text).toContain(USER_AGENTS);
    expect(fitted.text).toContain(USER_RULE);
    expect(fitted.text).toContain(USER_SKILL);
    // Only as many as needed: some of the repository's rules are still there.
    const kept = fitted.text.match(/Keep it short/g)?.length ?? 0;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(600);
    expect(fitted.text).toContain(`${600 - kept} always rule files of the repository are left out`);
    const cut = fitted.budget?.cuts.find((c) => c.step === "always-rules");
    expect(cut?.detail).toContain(`${600 - kept} of them whole`);
  });
});
