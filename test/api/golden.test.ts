import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { renderScenario } from "../../src/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { budgetProject } from "../budget/_project.js";
import { pinned } from "./_helpers.js";

/** The repository's root: `snapshots/` holds its own scenarios and goldens. */
const REPO = fileURLToPath(new URL("../../", import.meta.url));

describe("golden prompts (snapshots/*.scenario.yaml)", () => {
  it("sysprompt snapshot passes on the repository's own snapshots/", async () => {
    let stdout = "";
    let stderr = "";
    const code = await run(["snapshot", "snapshots"], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      cwd: REPO,
      env: {},
    });
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: [
        "pass    agent-claude-code",
        "pass    agent-codex",
        "pass    agent-gemini-cli",
        "pass    agent-opencode",
        "pass    agent-pi",
        "pass    custom-system-with-append",
        "pass    default-tools-small-model",
        "pass    default-tools",
        "pass    project-override-base",
        "pass    rules-every-format",
        "pass    workspace-roots",
        "pass    workspace-tree",
        "sysprompt snapshot: 12 scenarios: 12 passed, 0 drifted, 0 missing, 0 errors",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("renderScenario with toMatchFileSnapshot, as a project's own vitest suite would", async () => {
    const text = await renderScenario(join(REPO, "snapshots", "default-tools.scenario.yaml"));
    await expect(text).toMatchFileSnapshot("../../snapshots/default-tools.md");
  });

  it("budget-tree-skills: a token budget that cuts the workspace tree, the AGENTS.md list and the skill descriptions", async () => {
    // Not a scenario file: scenarios render in a temporary copy whose path varies, and
    // paths are part of what the budget counts. Built at a fixed path, mtimes pinned by makeTree.
    const root = "/tmp/sysprompt-golden-budget/budget-tree-skills";
    budgetProject(root);
    const result = await renderSystemPrompt(
      pinned(root, { workspaceTree: true, maxPromptTokens: 1184 }),
    );
    expect(result.budget?.cuts.map((c) => [c.section, c.step, c.complete])).toEqual([
      ["workspace_tree", "tree-lines", true],
      ["dir_context", "agents-md", true],
      ["skills", "skill-descriptions", true],
    ]);
    expect(result.budget?.fits).toBe(true);
    await expect(result.text).toMatchFileSnapshot("../../snapshots/budget-tree-skills.md");
  });
});
