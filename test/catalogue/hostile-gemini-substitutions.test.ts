// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is Gemini CLI's variable syntax under test, not a forgotten template literal.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Gemini CLI replaces `${AgentSkills}`, `${SubAgents}`, `${AvailableTools}`
// and `${<tool>_ToolName}` anywhere in a GEMINI_SYSTEM_MD file
// (applySubstitutions). A repository's AGENTS.md that wrote them reached the
// exported file raw (review rev38c F4, low): its element got Gemini CLI's
// skills block, sub-agent list and tool list. In the prompt for Gemini CLI
// (its preset's `export.substitutes`) a repository's text now writes them as
// `$\{…}`, which Gemini CLI does not match and Markdown reads as `{`; other
// agents' prompts, your own texts and any other `${…}` are as written.

const VARIABLES = "A ${AgentSkills} B ${SubAgents} C ${AvailableTools} D ${read_file_ToolName}";
const RAW = /\$\{(AgentSkills|SubAgents|AvailableTools|read_file_ToolName)\}/;

async function render(agent: string) {
  const root = tempDir();
  const options = pinned(root, { agent });
  mkdirSync(join(root, "project", ".git"));
  writeFileSync(join(root, "project", "AGENTS.md"), `# P\n\n${VARIABLES}\nuse \${HOME}/bin\n`);
  // A Cursor rule too: Claude Code, Codex and opencode read AGENTS.md themselves, not these.
  mkdirSync(join(root, "project", ".cursor", "rules"), { recursive: true });
  writeFileSync(
    join(root, "project", ".cursor", "rules", "r.mdc"),
    `---\nalwaysApply: true\n---\nRULE ${VARIABLES}\n`,
  );
  writeFileSync(join(root, "agent", "APPEND_SYSTEM.md"), "MINE: ${AvailableTools}\n");
  return (await renderSystemPrompt(options)).text;
}

describe("hostile repository: Gemini CLI's ${…} variables in a repository's text", () => {
  it("the prompt for Gemini CLI writes the repository's as $\\{…}, and keeps yours and ${HOME}", async () => {
    const text = await render("gemini-cli");
    const repo = text.slice(text.indexOf("A $"), text.indexOf("/bin"));
    expect(repo).not.toMatch(RAW);
    expect(repo).toContain("A $\\{AgentSkills} B $\\{SubAgents} C $\\{AvailableTools}");
    expect(repo).toContain("$\\{read_file_ToolName}");
    expect(repo).toContain("use ${HOME}");
    expect(text).toContain("MINE: ${AvailableTools}");
    expect(text).toContain("RULE A $\\{AgentSkills}");
    // Only yours, as written.
    expect(text.match(new RegExp(RAW.source, "g"))).toEqual(["${AvailableTools}"]);
  });

  it("other agents get the repository's text as written", async () => {
    for (const agent of ["claude-code", "codex", "opencode"])
      expect(await render(agent)).toContain(`RULE ${VARIABLES}`);
  });
});
