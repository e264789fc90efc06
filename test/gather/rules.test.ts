import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildRules,
  dropStatedRules,
  parseRuleList,
  SHELL_SEARCH_RULE,
} from "../../src/gather/guidelines/guidelines.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { GENERAL_RULES, pinned, SHELL_RULE, tempDir } from "../api/_helpers.js";

describe("buildRules", () => {
  it("takes lists of any length: 200,000 general rules are no crash (rev50b F7)", () => {
    const many = Array.from({ length: 200_000 }, (_, i) => `r${i % 3}`);
    expect(buildRules({ tools: [], promptGuidelines: many, generalRules: many })).toEqual([
      "r0",
      "r1",
      "r2",
    ]);
  });

  it("adds the shell rule when bash or powershell is selected without grep, find or ls", () => {
    expect(buildRules({ tools: ["read", "bash"] })).toEqual([SHELL_SEARCH_RULE]);
    expect(buildRules({ tools: ["powershell"] })).toEqual([SHELL_SEARCH_RULE]);
    expect(buildRules({ tools: ["bash", "grep"] })).toEqual([]);
    expect(buildRules({ tools: ["bash", "find"] })).toEqual([]);
    expect(buildRules({ tools: ["bash", "ls"] })).toEqual([]);
    expect(buildRules({ tools: ["read", "edit"] })).toEqual([]);
  });

  it("orders: shell rule, selected tools' guidelines in selection order, caller guidelines, general rules", () => {
    expect(
      buildRules({
        tools: ["edit", "bash", "read"],
        toolGuidelines: {
          read: ["Read whole files when they are short."],
          bash: ["Prefer non-interactive commands."],
          edit: ["Keep edits small."],
          write: ["Not selected, so not used."],
        },
        promptGuidelines: ["Answer in English."],
        generalRules: ["Be honest."],
      }),
    ).toEqual([
      SHELL_SEARCH_RULE,
      "Keep edits small.",
      "Prefer non-interactive commands.",
      "Read whole files when they are short.",
      "Answer in English.",
      "Be honest.",
    ]);
  });

  it("trims, drops blanks and drops duplicates keeping the first position", () => {
    expect(
      buildRules({
        tools: ["read"],
        toolGuidelines: { read: ["  Be honest.  ", "", "Check paths."] },
        promptGuidelines: ["\n", "Check paths.", "Answer briefly.", "Be honest."],
        generalRules: ["Answer briefly.", "   ", "Last one."],
      }),
    ).toEqual(["Be honest.", "Check paths.", "Answer briefly.", "Last one."]);
  });

  it("ignores inherited keys of toolGuidelines (a tool named like an Object method)", () => {
    expect(buildRules({ tools: ["toString", "constructor"], toolGuidelines: {} })).toEqual([]);
  });
});

describe("parseRuleList", () => {
  it("keeps `- ` lines, trimmed; comments and other lines are not rules", () => {
    expect(
      parseRuleList("# comment\n- First.\n\n  -   Second.  \nnot a rule\n-missing space\n- Third."),
    ).toEqual(["First.", "Second.", "Third."]);
  });
});

describe("dropStatedRules", () => {
  it("leaves out a rule stated as a paragraph or a list item elsewhere, whitespace aside", () => {
    expect(
      dropStatedRules(
        ["Use pnpm.", "Keep edits small.", "Write tests first.", "Be brief.", "Answer in English."],
        [
          "Intro.\n\nUse   pnpm.\n\nMore.",
          null,
          "Rules:\n- Keep edits\n  small.\n1. Write tests first.",
          "Say: Be brief. Then stop.",
          "```\n- Answer in English.\n```",
        ],
      ),
    ).toEqual(["Be brief.", "Answer in English."]);
  });
});

describe("rules in the prompt", () => {
  it("a guideline or general rule the user's context file or the addendum already states is not repeated", async () => {
    const root = tempDir();
    mkdirSync(join(root, "agent"));
    // The user's own file: a repository's copy never takes a rule out (catalogue/hostile-dedupe-authority).
    writeFileSync(
      join(root, "agent", "AGENTS.md"),
      `Team rules:\n\n- Answer in English.\n- ${GENERAL_RULES[0]}`,
    );
    const result = await renderSystemPrompt(
      pinned(root, {
        promptGuidelines: ["Answer in English.", "Cite files."],
        appendSystemPrompt: "Cite files.",
      }),
    );
    expect(result.sections.find((s) => s.name === "rules")?.text).toBe(
      `<rules>\nRules:\n${[SHELL_RULE, ...GENERAL_RULES.slice(1)].map((r) => `- ${r}`).join("\n")}\n</rules>`,
    );
  });

  it("a SYSTEM_TEMPLATE.md that fails does not take rules with it: the builtin base keeps them all", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project", ".pi"), { recursive: true });
    // States a rule, then breaks: the builtin base (with its rules section) is used instead.
    writeFileSync(
      join(root, "project", ".pi", "SYSTEM_TEMPLATE.md"),
      `- ${GENERAL_RULES[0]}\n\n{{#each tools}}`,
    );
    const result = await renderSystemPrompt(pinned(root));
    expect(result.sections.find((s) => s.name === "rules")?.text).toBe(
      `<rules>\nRules:\n${[SHELL_RULE, ...GENERAL_RULES].map((r) => `- ${r}`).join("\n")}\n</rules>`,
    );
  });
});
