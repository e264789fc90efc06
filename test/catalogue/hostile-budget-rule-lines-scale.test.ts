import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// No shrink step touched the names, globs or paths on the repository's
// on-demand rule lines (`rule-descriptions` took only the description out).
// Review rev35b: four `.cursor/rules/*.mdc` with ~30 KB of globs each kept an
// untrusted prompt at ~40,900 tokens under a budget of 20,000, and fitting cut
// your AGENTS.md, always rule and skill for nothing. The step now drops the
// repository's long globs, then its rule lines, before any text of yours.

const USER_AGENTS = "USER-AGENTS-MARKER always use tabs.";
const USER_RULE = "USER-ALWAYS-RULE never push to main.";
const USER_SKILL = "USER-SKILL-MARKER deploy the staging cluster safely";

function userFiles(): Record<string, string> {
  const lines = (n: number, text: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => `${text(i)}\n`).join("");
  return {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": `${USER_AGENTS}\n${lines(40, (i) => `- User preference ${i}: keep functions short and write tests first for module ${i}.`)}`,
    "agent/rules/mine.md": `---\nalwaysApply: true\n---\n${USER_RULE}\n${lines(30, (i) => `- always rule line ${i} with some explanation of the point.`)}`,
    "agent/skills/myskill/SKILL.md": `---\nname: myskill\ndescription: ${USER_SKILL}\n---\nbody\n`,
  };
}

describe("hostile repository: the token budget cuts the repository's on-demand rule lines before your text", () => {
  it("rules of ~30 KB of globs each lose their globs; your AGENTS.md, always rule and skill stay", async () => {
    const root = tempDir();
    const globs = Array.from({ length: 1100 }, (_, j) => `src/m${j}/deep/path/**/*.tsx`).join(",");
    const files = userFiles();
    for (let i = 0; i < 4; i++) {
      files[`project/.cursor/rules/r${i}.mdc`] = `---\nglobs: "${globs}"\n---\nbody\n`;
    }
    writeFiles(root, files);
    const options = pinned(root, { projectTrusted: false });
    const fitted = await renderSystemPrompt({ ...options, maxPromptTokens: 20_000 });
    expect(fitted.budget?.initialTokens).toBeGreaterThan(40_000);
    expect(fitted.budget?.fits).toBe(true);
    expect(fitted.text).toContain(USER_AGENTS);
    expect(fitted.text).toContain(USER_RULE);
    expect(fitted.text).toContain(USER_SKILL);
    expect(fitted.text).not.toContain("src/m1/deep/path");
    // The rule lines stay, by name and path, with a note that their globs are in their files.
    expect(fitted.text).toMatch(/- r0 — \S*\.cursor\/rules\/r0\.mdc/);
    expect(fitted.text).toContain("Long glob lists of the repository's rules are left out");
    const cut = fitted.budget?.cuts.find((c) => c.step === "rule-descriptions");
    expect(cut?.detail).toContain("4 without their globs");
  });

  it("200 short rule lines (a folder's most) are left out whole before your text", async () => {
    const root = tempDir();
    const files = userFiles();
    for (let i = 0; i < 200; i++) {
      files[`project/.cursor/rules/rule-number-${i}-with-a-long-name.mdc`] =
        `---\nglobs: "src/area${i}/**/*.ts"\n---\nbody\n`;
    }
    writeFiles(root, files);
    const options = pinned(root, { projectTrusted: false });
    const whole = await renderSystemPrompt({ ...options, maxPromptTokens: 1_000_000 });
    const initial = whole.budget?.initialTokens ?? 0;
    expect(initial).toBeGreaterThan(10_000);
    const fitted = await renderSystemPrompt({ ...options, maxPromptTokens: 5_000 });
    expect(fitted.budget?.fits).toBe(true);
    expect(fitted.text).toContain(USER_AGENTS);
    expect(fitted.text).toContain(USER_RULE);
    expect(fitted.text).toContain(USER_SKILL);
    expect(fitted.text).not.toContain("rule-number-1-with");
    expect(fitted.text).toContain("200 on-demand rule files of the repository are not listed");
  });
});
