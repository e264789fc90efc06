import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runByNameOf } from "../../src/cli/commands/_output-file.js";
import { agentFileOf } from "../../src/hook/snippet.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev58d F5: `-o` judged the agents' and tools' names with case on Linux, so
// `.Claude/settings.json`, `.MCP.json`, `.VSCode/tasks.json` were written; on macOS and Windows
// each is the agent's file. Windows also drops a name's trailing dots and spaces: `.git./config`
// is `.git/config` there, and `.envrc ` is `.envrc`.

const AGENT_SPELLINGS = [
  ".Claude/settings.json",
  ".CLAUDE/commands/x.md",
  ".Codex/config.toml",
  ".Gemini/settings.json",
  ".Pi/settings.json",
  ".MCP.json",
  "OPENCODE.json",
  ".Opencode/plugins/x.ts",
  ".Cursor/mcp.json",
  ".VSCode/tasks.json",
  ".GITHUB/workflows/x.yml",
  ".claude./settings.json",
  ".claude /settings.json",
  ".claude/settings.json.",
  ".mcp.json. ",
  ".vscode../tasks.json",
];

const RUN_SPELLINGS = [".git./config", ".GIT./hooks/pre-commit", ".envrc.", ".envrc ", ".Bashrc. "];

describe("hostile-output-name-spelling: -o compares every name list without case and trailing dots or spaces", () => {
  it("each spelling is the agent's configuration or a run-by-name file", () => {
    for (const path of AGENT_SPELLINGS) expect(agentFileOf(`/srv/p/${path}`), path).toBeDefined();
    for (const path of RUN_SPELLINGS) expect(runByNameOf(`/srv/p/${path}`), path).toBeDefined();
  });

  it("text files keep their place in any spelling; other names stay writable", () => {
    for (const path of [".Claude/CLAUDE.md", ".CODEX/prompts/x.md", ".Cursor/rules/a.mdc"]) {
      expect(agentFileOf(`/srv/p/${path}`), path).toBeUndefined();
    }
    for (const path of ["notes.md", "...", "a/../prompt.md", ".claudex/settings.json"]) {
      expect(agentFileOf(`/srv/p/${path}`), path).toBeUndefined();
      expect(runByNameOf(`/srv/p/${path}`), path).toBeUndefined();
    }
  });

  it("render -o .Claude/settings.json is refused, nothing written", async () => {
    const root = tempDir();
    for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
    for (const name of [".Claude/settings.json", ".git./config"]) {
      const out = await cli(root, join(root, "p"), ["render", "-o", name]);
      expect(out.code, name).toBe(2);
      expect(existsSync(join(root, "p", name)), name).toBe(false);
    }
  });
});
