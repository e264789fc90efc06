import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderWithinBudget } from "../../src/budget/fit.js";
import { createEngine } from "../../src/engine/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import { userTextSections } from "../../src/sections/user-text.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Past the prompt's 8 MiB (prompt-too-large) a whole section was left out,
// the user's own texts in it with the repository's: a trusted project's 8
// sections of ~1 MiB before project_context (order 70) and a 100 KB
// AGENTS.md left out the user's AGENTS.md with no word (review rev36c F4,
// mk-pX). The repository's text in such a section is now cut first, with the
// budget's steps and repository-first round counted in characters
// (`room-cut`), and `user-text-left-out` says so when the user's text is
// left out anyway.

const USER_AGENTS = "USER-AGENTS-MARKER always be nice";
const USER_RULE = "USER-RULE-MARKER rule always";

/** A trusted project with `count` sections of `chars` characters each (order 1…), and the user's AGENTS.md and rule. */
function fixture(count: number, chars: number, repositoryAgents: string): string {
  const root = tempDir();
  const project = join(root, "project");
  mkdirSync(join(project, ".pi", "sections"), { recursive: true });
  mkdirSync(join(project, ".git"), { recursive: true });
  for (let i = 0; i < count; i++) {
    // Distinct words, so no dedupe or compression of any kind could make them shorter.
    const words: string[] = [];
    let n = 0;
    for (let k = 0; n < chars; k++) {
      const word = `w${i}x${k.toString(36)}`;
      words.push(word);
      n += word.length + 1;
    }
    const body = words.join(" ").slice(0, chars);
    writeFileSync(
      join(project, ".pi", "sections", `big${i}.md`),
      `---\norder: ${i + 1}\n---\n${body}\n`,
    );
  }
  writeFileSync(join(project, "AGENTS.md"), repositoryAgents);
  mkdirSync(join(root, "agent", "rules"), { recursive: true });
  writeFileSync(join(root, "agent", "AGENTS.md"), `# Mine\n${USER_AGENTS}\n`);
  writeFileSync(
    join(root, "agent", "rules", "mine.md"),
    `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
  );
  return root;
}

describe("hostile repository: the prompt's 8 MiB never takes the user's texts out with the repository's", () => {
  it("20 tiny project sections declaring every step do not spend the room fitting's renders (review rev37b F2)", async () => {
    // Their steps cut data they do not print: tried first (priority 0), they spent the 64
    // renders before the builtin context-files step, and the user's AGENTS.md stayed out.
    const root = fixture(8, 1_043_000, `${"repository words ".repeat(6000)}\n`);
    const steps =
      "[tree-lines, tree-depth, agents-md, skill-descriptions, skill-list, context-files, rule-descriptions, always-rules, appended-files]";
    const project = join(root, "project");
    for (let i = 0; i < 20; i++) {
      writeFileSync(
        join(project, ".pi", "sections", `tiny${i}.md`),
        `---\norder: ${200 + i}\nshrink: { priority: 0, steps: ${steps} }\n---\ntiny ${i}\n`,
      );
    }
    mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
    for (let i = 1; i <= 5; i++) {
      writeFileSync(
        join(project, ".cursor", "rules", `a${i}.mdc`),
        `---\nalwaysApply: true\n---\nalways rule ${i} ${"word ".repeat(100)}\n`,
      );
      writeFileSync(
        join(project, ".cursor", "rules", `g${i}.mdc`),
        `---\nglobs: src/**/*.ts\ndescription: glob rule ${i}\n---\nx\n`,
      );
    }
    writeFileSync(join(project, ".pi", "APPEND_SYSTEM.md"), `project append ${"n ".repeat(300)}\n`);
    for (let i = 1; i <= 10; i++) {
      mkdirSync(join(project, `d${i}`));
      writeFileSync(join(project, `d${i}`, "AGENTS.md"), `nested ${i}\n`);
    }
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    expect(result.text).toContain(USER_AGENTS);
    expect(result.text).toContain(USER_RULE);
    expect(result.diagnostics.map((d) => d.code)).toContain("room-cut");
  });

  it("8 project sections of ~1 MiB and a 100 KB AGENTS.md: the repository's AGENTS.md goes, the user's stays", async () => {
    const root = fixture(8, 1_043_000, `${"repository words ".repeat(6000)}\n`);
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const codes = result.diagnostics.map((d) => d.code);
    expect(codes).not.toContain("prompt-too-large");
    expect(result.text).toContain(USER_AGENTS);
    expect(result.text).toContain(USER_RULE);
    expect(result.text).not.toContain("repository words repository words");
    const cut = result.diagnostics.find((d) => d.code === "room-cut");
    expect(cut?.message).toMatch(
      /^section "project_context" shrunk \(context-files\): 1 of 2 context files left out/,
    );
    expect(result.text.length).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it("sections of the project's own that fill the 8 MiB: the user's AGENTS.md is left out with a user-text-left-out warning", async () => {
    const root = fixture(8, 1_048_500, "# proj\n");
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    expect(result.text).not.toContain(USER_AGENTS);
    const warned = result.diagnostics.filter((d) => d.code === "user-text-left-out");
    expect(warned.map((d) => d.message)).toContainEqual(
      expect.stringMatching(
        /^section "project_context" was left out for want of room .*: your own instruction file .*AGENTS\.md is not in the prompt/,
      ),
    );
  });

  it("a section whose own render stops at 8 MiB: the repository's rule lines go, the user's rule stays", async () => {
    // The rules' printed total keeps a repository's list under 2 MiB; past it (a host's data, a
    // cap raised), project_rules stopped at its render cap and the user's rule went with it.
    const root = fixture(0, 0, "# proj\n");
    const prepared = await preparePrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const line = "x".repeat(10_000);
    const onDemandRules = Array.from({ length: 1000 }, (_, i) => ({
      name: `r${i}`,
      source: "cursor",
      path: `/p/.cursor/rules/${line}${i}.mdc`,
      activation: "glob",
      globs: ["src/**"],
      globsText: "src/**",
      description: null,
      origin: "project" as const,
    }));
    const result = renderPrepared({ ...prepared, data: { ...prepared.data, onDemandRules } });
    const codes = result.diagnostics.map((d) => d.code);
    expect(codes).not.toContain("template");
    expect(result.text).toContain(USER_RULE);
    expect(result.text).not.toContain(line);
    const cut = result.diagnostics.find((d) => d.code === "room-cut");
    expect(cut?.message).toMatch(
      /^section "project_rules" shrunk \(always-rules\): the repository's on-demand rules not listed \(1000 rules\)/,
    );
  });

  it("under a token budget the prompt meets, a section of yours with no room takes no text of yours elsewhere", async () => {
    // Fitting for room cuts the repository's text only: were it to go on to the user's own
    // text (the second round), the user's skill would go for an AGENTS.md that never comes back.
    const root = fixture(8, 1_048_500, "# proj\n");
    mkdirSync(join(root, "agent", "skills", "mine"), { recursive: true });
    writeFileSync(
      join(root, "agent", "skills", "mine", "SKILL.md"),
      "---\nname: mine\ndescription: USER-SKILL-MARKER mine\n---\nBody.\n",
    );
    const prepared = await preparePrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const out = renderWithinBudget(prepared, createEngine(), {
      maxTokens: 9 * 1024 * 1024,
      countTokens: (text) => text.length,
      keep: userTextSections(prepared.data),
    });
    expect(out.text).not.toContain(USER_AGENTS);
    expect(out.budget.cuts.filter((c) => c.section === "skills")).toEqual([]);
  });
});
