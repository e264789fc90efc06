import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Fitting a token budget shrank sections by priority alone: skills (30), then
// project_rules (35), then project_context (40). The user's own always rule
// and skills went before any repository context file, so an untrusted
// repository's long AGENTS.md stayed whole while the user's rule and skill
// were cut (issue 24). Now every section's repository text goes first, then
// the user's own in any section.

const USER_RULE = "USER-RULE: never push to the main branch; open a pull request and wait.";
const USER_SKILL = "USER-SKILL-DESC how I deploy to my servers.";
const REPO_TAIL = "word3999";

function world(extra: Record<string, string> = {}, projectTrusted = false) {
  const root = tempDir();
  const checklist = Array.from(
    { length: 60 },
    (_, i) => `- Step ${i}: check the release checklist item ${i} with me before you go on.`,
  ).join("\n");
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": `Repo notes. ${Array.from({ length: 4000 }, (_, i) => `word${i}`).join(" ")}\n`,
    "agent/rules/review.md": `---\nalwaysApply: true\n---\n${USER_RULE}\n\n${checklist}\n`,
    "agent/skills/deploy/SKILL.md": `---\nname: deploy\ndescription: ${USER_SKILL}\n---\nSteps.\n`,
    ...extra,
  });
  return pinned(root, { projectTrusted });
}

describe("hostile repository: a token budget cuts the repository's text in every section before yours", () => {
  it("a repository AGENTS.md goes before your always rule and your skill", async () => {
    const options = world();
    const whole = await renderSystemPrompt({ ...options, maxPromptTokens: 1_000_000 });
    expect(whole.text).toContain(USER_RULE);
    expect(whole.text).toContain(USER_SKILL);
    const initial = whole.budget?.initialTokens ?? 0;
    // Room for everything but a few hundred tokens: one of the texts must go.
    const fitted = await renderSystemPrompt({ ...options, maxPromptTokens: initial - 300 });
    expect(fitted.budget?.fits).toBe(true);
    expect(fitted.text).toContain(USER_RULE);
    expect(fitted.text).toContain(USER_SKILL);
    expect(fitted.text).not.toContain(REPO_TAIL);
    expect(fitted.budget?.cuts.map((c) => c.section)).toEqual(["project_context"]);
  });

  it("a repository skill and AGENTS.md go; your skill and rule stay", async () => {
    const long = "theirs ".repeat(60).trim();
    const options = world(
      {
        "project/.agents/skills/build/SKILL.md": `---\nname: build\ndescription: REPO-SKILL ${long}\n---\nBuild.\n`,
      },
      // A project's skills are read only when it is trusted.
      true,
    );
    const whole = await renderSystemPrompt({ ...options, maxPromptTokens: 1_000_000 });
    expect(whole.text).toContain("REPO-SKILL");
    const initial = whole.budget?.initialTokens ?? 0;
    // Only the repository's text is cut, whatever the section: the user's skill keeps its description.
    const fitted = await renderSystemPrompt({ ...options, maxPromptTokens: initial - 4000 });
    expect(fitted.budget?.fits).toBe(true);
    expect(fitted.text).toContain(USER_RULE);
    expect(fitted.text).toContain(USER_SKILL);
    expect(fitted.text).not.toContain("REPO-SKILL");
    expect(fitted.text).not.toContain(REPO_TAIL);
  });

  it("your own text goes only when the repository's is all cut", async () => {
    const options = world();
    const whole = await renderSystemPrompt({ ...options, maxPromptTokens: 1_000_000 });
    const initial = whole.budget?.initialTokens ?? 0;
    const cut = await renderSystemPrompt({ ...options, maxPromptTokens: initial - 300 });
    // Below the prompt with the repository's file's text cut: its element goes whole, yours stays.
    const element = await renderSystemPrompt({
      ...options,
      maxPromptTokens: (cut.budget?.tokens ?? 0) - 10,
    });
    expect(element.budget?.fits).toBe(true);
    expect(element.budget?.cuts.map((c) => c.section)).toEqual(["project_context"]);
    expect(element.text).toContain(USER_SKILL);
    expect(element.text).toContain("1 instruction file of the repository is left out");
    // Below the prompt without the repository's file: the user's text must give too.
    const below = (element.budget?.tokens ?? 0) - 10;
    const fitted = await renderSystemPrompt({ ...options, maxPromptTokens: below });
    expect(fitted.budget?.fits).toBe(true);
    const steps = fitted.budget?.cuts.map((c) => `${c.section}/${c.step}`) ?? [];
    expect(steps[0]).toBe("project_context/context-files");
    // Then the user's own, by priority: the skills (30) before the user's rule (35).
    expect(steps.slice(1).every((s) => s.startsWith("skills/"))).toBe(true);
    expect(fitted.text).not.toContain(REPO_TAIL);
    expect(fitted.text).not.toContain(USER_SKILL);
    expect(fitted.text).toContain(USER_RULE);
  });
});
