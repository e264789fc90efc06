import { cpSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { formatSkillsForPrompt, loadSkills } from "../../src/skills/index.js";
import { SyspromptError } from "../../src/types.js";
import { copyScenario } from "./_helpers.js";

/** What a loader found, by name and source: enough to tell which folders it read. */
const names = (items: readonly { name: string; source: string }[]) =>
  items.map((i) => `${i.source}:${i.name}`);

describe("every exported loader has the same defaults", () => {
  it("agentDir: $SYSPROMPT_AGENT_DIR (from env), else ~/.pi/agent under home", async () => {
    const root = copyScenario("commands-from-both-layers");
    const cwd = join(root, "project");
    const viaEnv = {
      cwd,
      home: join(root, "home"),
      env: { SYSPROMPT_AGENT_DIR: join(root, "agent") },
    };
    cpSync(join(root, "agent"), join(root, "home", ".pi", "agent"), { recursive: true });
    const viaHome = { cwd, home: join(root, "home"), env: {} };
    for (const options of [viaEnv, viaHome]) {
      const templates = await loadPromptTemplates(options);
      expect(names(templates.templates)).toEqual(["project:fix", "user:review"]);
      expect(loadPromptTemplatesSync(options)).toEqual(templates);
      expect(names((await loadSkills(options)).skills)).toEqual(["project:pdf", "user:secret"]);
    }
  });

  it("a relative cwd resolves against the process's cwd, for templates and skills alike", async () => {
    const root = copyScenario("commands-from-both-layers");
    const options = {
      cwd: relative(process.cwd(), join(root, "project")),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
    };
    expect(names((await loadPromptTemplates(options)).templates)).toEqual([
      "project:fix",
      "user:review",
    ]);
    expect(names(loadPromptTemplatesSync(options).templates)).toEqual([
      "project:fix",
      "user:review",
    ]);
    expect(names((await loadSkills(options)).skills)).toEqual(["project:pdf", "user:secret"]);
  });
});

describe("formatSkillsForPrompt", () => {
  it("without a tool argument it is the read-tool index, not text starting with a blank line", async () => {
    const root = copyScenario("commands-from-both-layers");
    const { skills } = await loadSkills({
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
    });
    const text = formatSkillsForPrompt(skills);
    expect(text).toBe(formatSkillsForPrompt(skills, "read"));
    expect(text.startsWith("Skills are folders of instructions")).toBe(true);
  });

  it("an unknown tool is a SyspromptError", () => {
    expect(() => formatSkillsForPrompt([], "grep" as "read")).toThrow(
      new SyspromptError(
        "bad-option",
        'formatSkillsForPrompt: tool must be "read", "bash" or "none", got "grep"',
      ),
    );
  });
});
