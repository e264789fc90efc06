import { describe, expect, it } from "vitest";
import { agentFileOf } from "../../src/hook/snippet.js";

// Review rev57a F4: `-o` / `export --out` refused the prompt-text files of the other agents'
// folders as their configuration (Copilot's custom agents `.github/agents/x.agent.md`, its prompt
// files and chat modes, Cursor's and Roo's commands, Windsurf's and Cline's workflows, Amazon Q's
// rules), while the agents' own prompt folders (`.claude/output-styles`, `.codex/prompts`) were
// written; and `.github` counted at any depth, though GitHub reads only a repository's top one.

const PROMPT_TEXT = [
  ".github/agents/helper.agent.md",
  ".github/prompts/review.prompt.md",
  ".github/chatmodes/plan.chatmode.md",
  ".cursor/commands/review.md",
  ".windsurf/workflows/review.md",
  ".clinerules/workflows/review.md",
  ".roo/commands/review.md",
  ".amazonq/rules/x.md",
];

const CONFIGURATION = [
  ".github/workflows/ci.yml",
  ".github/CODEOWNERS",
  // A prompt folder's name is no pass out of it, nor into another folder of the lists.
  ".github/agents/../workflows/ci.yml",
  ".cursor/commands/../mcp.json",
  ".cursor/commands/.vscode/tasks.json",
  ".amazonq/mcp.json",
];

describe("hostile-output-other-agent-prompt-folders: the other agents' prompt folders are text, .github only at a top", () => {
  it("a file below their prompt folders is written; the rest of their folders is configuration", () => {
    for (const path of PROMPT_TEXT) expect(agentFileOf(`/p/${path}`), path).toBeUndefined();
    for (const path of CONFIGURATION) expect(agentFileOf(`/p/${path}`), path).toBeDefined();
  });

  it("`.github` is GitHub's only in a folder that is a repository's top", () => {
    const isTop = (folder: string) => folder === "/p" || folder === "/p/sub";
    expect(agentFileOf("/p/docs/.github/notes.md", isTop)).toBeUndefined();
    expect(agentFileOf("/p/docs/.github/workflows/ci.yml", isTop)).toBeUndefined();
    expect(agentFileOf("/p/.github/workflows/ci.yml", isTop)?.agent).toBe("GitHub");
    expect(agentFileOf("/p/sub/.github/workflows/ci.yml", isTop)?.agent).toBe("GitHub");
    // Spelled with `..` back to the top: judged as the top's.
    expect(agentFileOf("/p/docs/../.github/workflows/ci.yml", isTop)?.agent).toBe("GitHub");
    // Without a judge of tops (and so for a tree no repository bounds), at any depth.
    expect(agentFileOf("/p/docs/.github/notes.md")?.agent).toBe("GitHub");
  });
});
