import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatSkillsForPrompt,
  loadContextFiles,
  loadSkills,
  renderSystemPrompt,
} from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Totals of the repository's text counted raw bytes, while the prompt prints
// escaped text: a control character in a name as `\u0001` (6 bytes for 1), a
// tag of the prompt's as `&lt;` (review rev36c, issue 24). Each total now
// counts a text as printed (printedLength).

const C = "\x01".repeat(240);
const USER_SKILL = "USER-SKILL-MARKER deploys my stuff";
const USER_RULE = "USER-RULE-MARKER rule always";

/** The user's own always rule, in the agent dir's rules folder. */
function userRule(root: string): void {
  mkdirSync(join(root, "agent", "rules"), { recursive: true });
  writeFileSync(
    join(root, "agent", "rules", "mine.md"),
    `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
  );
}

describe("hostile repository: totals count the text as the prompt prints it", () => {
  it("skills under folders of control characters: the index's 1 MiB counts each as its six printed bytes", async () => {
    // 100 skills 10 folders deep, every folder 240 x \x01: about 2.4 KB of path each raw, 14.5 KB
    // printed; counted raw the index printed 1.45 MB against its 1 MiB (mk-pS: 300 skills, 6.17 MB).
    const root = tempDir();
    for (let i = 0; i < 100; i++) {
      const dir = join(
        root,
        "project",
        ".pi",
        "skills",
        `${C}${i}`,
        ...Array.from({ length: 9 }, (_, j) => `${C}${j}`),
      );
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "SKILL.md"),
        `---\nname: s${i}\ndescription: skill ${i}\n---\nBody.\n`,
      );
    }
    const mine = join(root, "agent", "skills", "mine");
    mkdirSync(mine, { recursive: true });
    writeFileSync(
      join(mine, "SKILL.md"),
      `---\nname: mine\ndescription: ${USER_SKILL}\n---\nBody.\n`,
    );
    mkdirSync(join(root, "project", ".git"), { recursive: true });
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const section = result.sections.find((s) => s.name === "skills")?.text ?? "";
    expect(section).toContain(USER_SKILL);
    expect(Buffer.byteLength(section)).toBeLessThan(1.05 * 1024 * 1024);
    const cut = result.diagnostics.find((d) => d.code === "skills-index-cut");
    expect(cut?.message).toMatch(/^\d+ of the project's skills are not listed/);
    // formatSkillsForPrompt lists the same skills, within the same total.
    const loaded = await loadSkills({
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
    });
    const text = formatSkillsForPrompt(loaded.skills);
    expect(text).toContain(USER_SKILL);
    expect(Buffer.byteLength(text)).toBeLessThan(1.05 * 1024 * 1024);
  });

  it("on-demand rules named with control characters: the list counts against the rules' printed total, the user's rule stays", async () => {
    // 250 Claude Code rules 5 folders deep, every name 200-240 x \x01, each with a description of
    // 4,100 x \x01: 1 MiB of rule files, whose lines printed 8.6 MB (six bytes a character) and
    // counted against nothing; project_rules stopped at its 8 MiB render cap and the user's
    // always rule went with it (mk-pR, mk-pR3).
    const root = tempDir();
    const dir = join(
      root,
      "project",
      ".claude",
      "rules",
      ...Array.from({ length: 5 }, (_, j) => `${C}${j}`),
    );
    mkdirSync(dir, { recursive: true });
    const description = "\x01".repeat(4100);
    for (let i = 0; i < 250; i++) {
      writeFileSync(
        join(dir, `${C.slice(0, 200)}${i}.md`),
        `---\npaths: ["src/**/*.ts"]\ndescription: "${description}"\n---\nclaude rule\n`,
      );
    }
    mkdirSync(join(root, "project", ".git"), { recursive: true });
    userRule(root);
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: false, deadlineMs: 60_000 }),
    );
    const codes = result.diagnostics.map((d) => d.code);
    expect(codes).not.toContain("template");
    expect(codes).not.toContain("prompt-too-large");
    expect(result.text).toContain(USER_RULE);
    const section = result.sections.find((s) => s.name === "project_rules")?.text ?? "";
    expect(Buffer.byteLength(section)).toBeLessThan(2.1 * 1024 * 1024);
    const cut = result.diagnostics.find((d) => d.code === "rules-printed-cut");
    expect(cut?.message).toMatch(
      /^\d+ of the project's rule files are not in the prompt \(0 to inline, \d+ to list\)/,
    );
  });

  it("context files of `<a` under a project section named `a`: the 2 MiB counts each `<` as the `&lt;` it prints", async () => {
    // mk-pW: AGENTS.md and 9 imports of `<a<a…` (2 MiB raw); the section `a` makes `<a` a tag the
    // prompt escapes (`&lt;a`, 2.5 times the bytes): project_context printed 5.2 MB of its 2 MiB.
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".pi", "sections"), { recursive: true });
    mkdirSync(join(project, "docs"), { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    writeFileSync(
      join(project, ".pi", "sections", "a.md"),
      "---\norder: 200\n---\nproject section a\n",
    );
    let imports = "";
    for (let i = 0; i < 9; i++) {
      writeFileSync(join(project, "docs", `d${i}.md`), `${"<a".repeat(120_000)} file${i}\n`);
      imports += `@docs/d${i}.md\n`;
    }
    writeFileSync(join(project, "AGENTS.md"), `${"<a".repeat(100_000)} root\n\n${imports}`);
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const section = result.sections.find((s) => s.name === "project_context")?.text ?? "";
    expect(section).toContain("&lt;a");
    expect(Buffer.byteLength(section)).toBeLessThan(2.1 * 1024 * 1024);
    expect(result.diagnostics.map((d) => d.code)).toContain("context-total-cut");
  });

  it("the context total cuts a file where its printed text reaches the total, `<` four bytes", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    writeFileSync(join(project, "AGENTS.md"), "<a".repeat(1000));
    const result = await loadContextFiles({
      cwd: project,
      agentDir: join(root, "agent"),
      home: join(root, "home"),
      maxTotalBytes: 1500,
    });
    const file = result.files.find((f) => f.path.endsWith("AGENTS.md"));
    const kept = (file?.content ?? "").split("\n")[0] ?? "";
    // 300 of `<a`: 1,500 bytes once printed `&lt;a`, where raw bytes kept 750 of them (3,750 printed).
    // The kept text is one start tag left unended (`<a<a…`, a tag name holds `<`), so each `<` is
    // written `&lt;` (rev70a F2): the 1,500 bytes counted are the bytes printed.
    expect(kept).toBe("&lt;a".repeat(300));
  });
});
