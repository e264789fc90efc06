import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// A trusted project's skills were listed before yours in `<available_skills>`
// (search order: the project's folders, then yours), where the rule files
// section lists your rules first (review rev50c F5). The index now lists
// yours first, then the repository's. Which skill of a name is kept is the
// recorded decision (docs/trust.md): a trusted project's replaces yours, as pi
// layers them and as a trusted project's rule does, never silently (`user-text-left-out`,
// a warning naming both files; review rev50d F4).

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nbody\n`;

describe("hostile repository: the skills index lists your skills before the project's", () => {
  it("your skills first, then the trusted project's", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/skills/myskill/SKILL.md": skill("myskill", "USER-SKILL"),
      "agent/skills/zeta/SKILL.md": skill("zeta", "USER-ZETA"),
      "project/.agents/skills/aaa/SKILL.md": skill("aaa", "REPO-AAA"),
      "project/.pi/skills/bbb/SKILL.md": skill("bbb", "REPO-BBB"),
    });
    const { text } = await renderSystemPrompt(pinned(root, { tools: ["read"] }));
    const names = [...text.matchAll(/<name>([^<]*)<\/name>/g)].map((m) => m[1]);
    expect(names).toEqual(["myskill", "zeta", "bbb", "aaa"]);
  });

  it("a trusted project's skill of your skill's name replaces it, with a warning naming both", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/skills/myskill/SKILL.md": skill("myskill", "USER-SKILL"),
      "project/.agents/skills/myskill/SKILL.md": skill("myskill", "REPO-SKILL"),
    });
    const { text, diagnostics } = await renderSystemPrompt(pinned(root, { tools: ["read"] }));
    expect(text).toContain("REPO-SKILL");
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        level: "warning",
        code: "user-text-left-out",
        message: expect.stringMatching(
          /^your skill "myskill" \(.*agent\/skills\/myskill\/SKILL\.md\) is left out: the project's .*\/project\/\.agents\/skills\/myskill\/SKILL\.md of the same name/,
        ),
      }),
    );
    const untrusted = await renderSystemPrompt(
      pinned(root, { tools: ["read"], projectTrusted: false }),
    );
    expect(untrusted.text).toContain("USER-SKILL");
    expect(untrusted.text).not.toContain("REPO-SKILL");
  });
});
