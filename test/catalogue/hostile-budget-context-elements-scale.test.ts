import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Under a token budget, a repository's context files kept their elements:
// `context-files` swapped a text for a marker and kept the element and its
// path, and skipped texts shorter than the marker. A working folder 250
// folders deep, each with a one-line AGENTS.md, kept 533 KB of paths, and the
// fit cut your skill to save 125 tokens of 67,000 over. A repository's file
// is now cut whole after its text (one note line counts them), and yours is
// cut only when that makes the prompt fit (review rev50b F1).

const SKILL = "MINE-SKILL: how I deploy";
const USER_AGENTS = "MINE-AGENTS: answer in English.";

function deepProject(root: string, depth: number): string {
  const files: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": `${USER_AGENTS}\n`,
    "agent/skills/deploy/SKILL.md": `---\nname: deploy\ndescription: ${SKILL}\n---\nDeploy.\n`,
  };
  let dir = "project";
  for (let i = 0; i < depth; i++) {
    dir = `${dir}/folder-with-a-rather-long-name-chosen-by-the-repository-${String(i).padStart(4, "0")}`;
    files[`${dir}/AGENTS.md`] = `Rule ${i}.\n`;
  }
  writeFiles(root, files);
  return join(root, dir);
}

describe("hostile repository: a token budget takes the repository's context files out whole", () => {
  it("many short files under long paths go, your skill and AGENTS.md stay", async () => {
    const root = tempDir();
    const cwd = deepProject(root, 40);
    const options = pinned(root, { cwd, projectTrusted: false });
    const whole = await renderSystemPrompt({ ...options, maxPromptTokens: 10_000_000 });
    expect(whole.text).toContain(SKILL);
    expect(whole.text).toContain("Rule 39.");
    const initial = whole.budget?.initialTokens ?? 0;
    const fitted = await renderSystemPrompt({
      ...options,
      maxPromptTokens: Math.round(initial / 3),
    });
    expect(fitted.budget?.fits).toBe(true);
    expect(fitted.text).toContain(SKILL);
    expect(fitted.text).toContain(USER_AGENTS);
    expect(fitted.text).toMatch(
      /\d+ instruction files of the repository are left out to fit the token budget/,
    );
    // The farthest go first: the nearest file stays.
    expect(fitted.text).toContain("Rule 39.");
    expect(fitted.text).not.toContain("Rule 0.");
    expect(fitted.diagnostics.filter((d) => d.code === "user-text-left-out")).toEqual([]);
  });

  it("your skill is not cut when the repository's uncuttable text alone is over the budget", async () => {
    const root = tempDir();
    const words = "alpha beta gamma delta ".repeat(4000);
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/sections/big.md": `---\norder: 75\n---\n${words}\n`,
      "agent/skills/deploy/SKILL.md": `---\nname: deploy\ndescription: ${SKILL}\n---\nDeploy.\n`,
    });
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, maxPromptTokens: 2000 }),
    );
    expect(result.budget?.fits).toBe(false);
    expect(result.text).toContain(SKILL);
    expect(result.budget?.cuts.filter((c) => c.section === "skills")).toEqual([]);
    expect(result.diagnostics.filter((d) => d.code === "budget-exceeded")).toHaveLength(1);
  });

  it("when cutting your skill makes the prompt fit, it is cut with a user-text-left-out warning", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/skills/deploy/SKILL.md": `---\nname: deploy\ndescription: ${SKILL} ${"long words ".repeat(200)}\n---\nDeploy.\n`,
    });
    const options = pinned(root, { projectTrusted: true });
    const whole = await renderSystemPrompt({ ...options, maxPromptTokens: 10_000_000 });
    const initial = whole.budget?.initialTokens ?? 0;
    const fitted = await renderSystemPrompt({ ...options, maxPromptTokens: initial - 100 });
    expect(fitted.budget?.fits).toBe(true);
    expect(fitted.diagnostics.filter((d) => d.code === "user-text-left-out")).toEqual([
      expect.objectContaining({
        level: "warning",
        message: expect.stringMatching(
          /^your own text in section "skills" was cut to fit the token budget/,
        ),
      }),
    ]);
  });
});
