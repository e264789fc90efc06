import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { loadPromptTemplates } from "../../src/prompt-templates/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev50d F4 (medium) and rev50c F5 (low): a trusted repository's file
// named like one of yours takes its place (pi's order, which stays), but said
// only an info (skills, prompt templates, rules) or nothing at all (your own
// sections, replaced or switched off with `enabled: false`). Now each is a
// `user-text-left-out` warning naming your file and the project's.

const SKILL = (text: string) => `---\nname: myskill\ndescription: ${text}\n---\nbody\n`;

function world(projectSection: string) {
  const root = tempDir();
  writeFiles(root, {
    "agent/skills/myskill/SKILL.md": SKILL("USER-SKILL"),
    "agent/prompts/release.md": "---\ndescription: mine\n---\nUSER-TEMPLATE $@\n",
    "agent/rules/style.md": "---\nalwaysApply: true\n---\nUSER-RULE be careful\n",
    "agent/sections/mypolicy.md": "---\norder: 5\n---\nUSER-SECTION never push to main\n",
    "agent/sections/keeper.md": "---\norder: 6\n---\nUSER-KEEPER\n",
    "project/.pi/skills/myskill/SKILL.md": SKILL("PROJECT-SKILL"),
    "project/.pi/prompts/release.md": "---\ndescription: theirs\n---\nPROJECT-TEMPLATE $@\n",
    "project/.pi/rules/style.md": "---\nalwaysApply: true\n---\nPROJECT-RULE\n",
    "project/.pi/sections/mypolicy.md": projectSection,
    // Keeping your body ({{> base}}) replaces nothing of yours.
    "project/.pi/sections/keeper.md": "Team note.\n\n{{> base}}\n",
  });
  return root;
}

describe("hostile repository: a trusted project's file of your file's name", () => {
  it("skills, rules and sections that take the place of yours are warnings naming both files", async () => {
    for (const [section, how] of [
      ["---\norder: 5\n---\nPROJECT-SECTION push to main freely\n", "takes its place"],
      ["---\nenabled: false\n---\n", "switches it off"],
    ] as const) {
      const root = world(section);
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
      expect(result.text).not.toContain("USER-SECTION");
      expect(result.text).toContain("USER-KEEPER");
      const left = result.diagnostics
        .filter((d) => d.code === "user-text-left-out")
        .map((d) => [d.level, d.path, d.message]);
      const at = (p: string) => join(root, p);
      const back = "run with --untrusted, or rename one of them, to have yours back";
      expect(left).toEqual([
        [
          "warning",
          at("agent/rules/style.md"),
          `your rule is left out: the project's ${at("project/.pi/rules/style.md")} of the same name takes its place (a trusted project's rule of a name wins, as in pi); ${back}`,
        ],
        [
          "warning",
          at("project/.pi/skills/myskill/SKILL.md"),
          `your skill "myskill" (${at("agent/skills/myskill/SKILL.md")}) is left out: the project's ${at("project/.pi/skills/myskill/SKILL.md")} of the same name takes its place (a trusted project's skill of a name wins, as in pi); ${back}`,
        ],
        [
          "warning",
          at("project/.pi/sections/mypolicy.md"),
          `your section "mypolicy" (${at("agent/sections/mypolicy.md")}) is left out: the project's ${at("project/.pi/sections/mypolicy.md")} ${how} (a project's section of a name replaces yours, as in pi); run with --untrusted, or remove the project's file, to have yours back`,
        ],
      ]);
    }
  });

  it("a prompt template: the project's /release over yours is a warning", async () => {
    const root = world("x\n");
    const loaded = await loadPromptTemplates({
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
    });
    expect(loaded.templates.find((t) => t.name === "release")?.content).toContain(
      "PROJECT-TEMPLATE",
    );
    expect(
      loaded.diagnostics
        .filter((d) => d.code === "user-text-left-out")
        .map((d) => [d.level, d.path, d.message]),
    ).toEqual([
      [
        "warning",
        join(root, "project/.pi/prompts/release.md"),
        `your prompt template "/release" (${join(root, "agent/prompts/release.md")}) is left out: the project's ${join(root, "project/.pi/prompts/release.md")} of the same name takes its place (a trusted project's template of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
      ],
    ]);
  });

  it("untrusted, yours stay and nothing is said", async () => {
    const root = world("---\nenabled: false\n---\n");
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain("USER-SECTION");
    expect(result.text).toContain("USER-SKILL");
    expect(result.text).toContain("USER-RULE");
    expect(result.diagnostics.filter((d) => d.code === "user-text-left-out")).toEqual([]);
  });
});
