import { describe, expect, it } from "vitest";
import { escapeInline } from "../../src/_text.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// One-line values (a skill's name, a rule's name and description) and the
// diagnostics the CLI prints kept the default-ignorable code points other
// than the zero-width and bidirectional ones: a trusted project's skill named
// `myskill\u2060` read as a second `myskill` before yours, its
// `skill-name-invalid` warning printed the word joiner raw, and a rule's
// soft hyphen or tag character stayed invisible (review rev50c F6). Each is
// now written `\uXXXX` (a tag character as its two surrogates).

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}]/u;

function world() {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/skills/myskill/SKILL.md": "---\nname: myskill\ndescription: USER-SKILL\n---\nbody\n",
    "project/.agents/skills/twin/SKILL.md":
      '---\nname: "myskill\\u2060"\ndescription: REPO-SKILL\n---\nbody\n',
    "project/.cursor/rules/r.mdc":
      '---\ndescription: "deploy\\U000E0020 rule\\u034f\\ufe0f\\u3164"\nalwaysApply: false\n---\nREPO\n',
  });
  return pinned(root);
}

describe("hostile repository: no invisible character in a one-line value or a diagnostic", () => {
  it("the twin skill's name and the rule's line show their invisible characters", async () => {
    const { text, diagnostics } = await renderSystemPrompt(world());
    expect(text).toContain("<name>myskill\\u2060</name>");
    expect(text).toContain("deploy\\udb40\\udc20 rule\\u034f\\ufe0f\\u3164");
    const repoLines = text.split("\n").filter((l) => /myskill|deploy/.test(l));
    expect(repoLines.length).toBeGreaterThanOrEqual(3);
    for (const line of repoLines) expect(line).not.toMatch(INVISIBLE);
    const invalid = diagnostics.find((d) => d.code === "skill-name-invalid");
    expect(invalid?.message).toContain("myskill\u2060");
    expect(escapeInline(invalid?.message ?? "")).toContain('"myskill\\u2060"');
    expect(escapeInline(invalid?.message ?? "")).not.toMatch(INVISIBLE);
  });
});
