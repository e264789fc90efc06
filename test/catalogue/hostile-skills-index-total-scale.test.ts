import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatSkillsForPrompt, loadSkills, renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The skills index had no total, as context files (2 MiB) and rule files
// (1 MiB) have: a trusted project's 3,000 skills of 1 KiB descriptions made
// a 3.5 MB prompt (1,500 make 1.8 MB here), and past 8 MiB (prompt-too-large) the whole skills
// section was left out, the user's skill with it. The repository's skills
// are now listed to a total, the user's counted first and always listed.

const USER_SKILL = "USER-SKILL-MARKER deploys my stuff";

/** A trusted project of `count` skills with descriptions of `words` words, and the user's one skill. */
function fixture(count: number, words: number, word = "word"): string {
  const root = tempDir();
  for (let i = 0; i < count; i++) {
    const dir = join(root, "project", ".pi", "skills", `s${i}`);
    mkdirSync(dir, { recursive: true });
    const description = `Project skill ${i}. ${`${word} `.repeat(words)}`.trim();
    writeFileSync(
      join(dir, "SKILL.md"),
      `---\nname: s${i}\ndescription: ${description}\n---\nBody.\n`,
    );
  }
  const mine = join(root, "agent", "skills", "mine");
  mkdirSync(mine, { recursive: true });
  writeFileSync(
    join(mine, "SKILL.md"),
    `---\nname: mine\ndescription: ${USER_SKILL}\n---\nBody.\n`,
  );
  mkdirSync(join(root, "project", ".git"), { recursive: true });
  return root;
}

describe("hostile repository: thousands of skills do not crowd the index", () => {
  it("1,500 skills of 1 KiB: the index stays within its total and lists the user's skill", async () => {
    const root = fixture(1500, 200);
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const section = result.sections.find((s) => s.name === "skills")?.text ?? "";
    expect(section).toContain(USER_SKILL);
    expect(Buffer.byteLength(section)).toBeLessThan(1.2 * 1024 * 1024);
    const cut = result.diagnostics.find((d) => d.code === "skills-index-cut");
    expect(cut?.message).toMatch(/^\d+ of the project's skills are not listed/);
    // formatSkillsForPrompt lists the same skills as the section.
    const loaded = await loadSkills({
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
    });
    const text = formatSkillsForPrompt(loaded.skills);
    expect(text).toContain(USER_SKILL);
    expect(Buffer.byteLength(text)).toBeLessThan(1.2 * 1024 * 1024);
  });

  it("3,000 skills of 3 KiB (past the prompt's 8 MiB): the user's skill is still in the prompt", async () => {
    const root = fixture(3000, 600);
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    expect(result.text).toContain(USER_SKILL);
    expect(result.diagnostics.map((d) => d.code)).not.toContain("prompt-too-large");
  });

  it("skills of `&`: the total counts what the index prints, five bytes an `&`", async () => {
    // 600 descriptions of 500 `&` (and spaces): counted raw, the index printed 1.9 MB against its
    // 1 MiB (review rev35b: 1 MiB of `&` printed about 5 MB and pushed a prompt past 8 MiB).
    const root = fixture(600, 500, "&");
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const section = result.sections.find((s) => s.name === "skills")?.text ?? "";
    expect(section).toContain(USER_SKILL);
    expect(Buffer.byteLength(section)).toBeLessThan(1.2 * 1024 * 1024);
  });
});
