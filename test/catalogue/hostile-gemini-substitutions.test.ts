// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is Gemini CLI's variable syntax under test, not a forgotten template literal.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

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

/**
 * `prompt` as Gemini CLI 0.61's applySubstitutions makes it, for tools named
 * `tools`: its four patterns, a tool's name put in its regular expression as
 * it is (a `.` in it matches any character but a line break).
 */
function geminiSubstitutes(prompt: string, tools: readonly string[]): string {
  let out = prompt
    .replace(/\$\{AgentSkills\}/g, "<skills>")
    .replace(/\$\{SubAgents\}/g, "<agents>")
    .replace(/\$\{AvailableTools\}/g, "<tools>");
  for (const tool of tools)
    out = out.replace(new RegExp(`\\$\\{\\b${tool}_ToolName\\b\\}`, "g"), tool);
  return out;
}

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

  it("names, paths and descriptions in the prompt for Gemini CLI, attributes included, write them as $\\{…}", async () => {
    // Review rev41c F3 (medium): a rule file `.cursor/rules/${AgentSkills}.mdc` gave
    // `<rule name="${AgentSkills}" path="…/${AgentSkills}.mdc">`, a folder `x/${SubAgents}`
    // the path of its AGENTS.md, raw: Gemini CLI put its skills block inside the tag.
    const root = tempDir();
    const project = join(root, "project");
    const folder = join(project, "x", "${SubAgents}");
    const options = pinned(root, { agent: "gemini-cli", cwd: folder, tools: ["read"] });
    mkdirSync(join(project, ".git"));
    mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(project, ".cursor", "rules", "${AgentSkills}.mdc"),
      "---\nalwaysApply: true\n---\nUse tabs.\n",
    );
    writeFileSync(
      join(project, ".cursor", "rules", "${AvailableTools}.mdc"),
      "---\ndescription: on demand ${mcp_docs_ToolName}\nglobs: '*.${SubAgents}'\n---\nx\n",
    );
    writeFileSync(join(folder, "AGENTS.md"), "NESTED\n");
    mkdirSync(join(root, "agent", "skills", "s${AgentSkills}"), { recursive: true });
    writeFileSync(
      join(root, "agent", "skills", "s${AgentSkills}", "SKILL.md"),
      "---\nname: s\ndescription: skill ${AgentSkills}\n---\nbody\n",
    );
    writeFileSync(join(root, "agent", "APPEND_SYSTEM.md"), "MINE: ${AvailableTools}\n");
    const text = (await renderSystemPrompt(options)).text;
    expect(text).toContain('<rule name="$\\{AgentSkills}"');
    expect(text).toContain("skill $\\{AgentSkills}");
    expect(text).toContain("x/$\\{SubAgents}/AGENTS.md");
    // As Gemini CLI 0.61 substitutes: only yours is replaced.
    expect(geminiSubstitutes(text, ["read_file", "mcp_docs"])).toBe(
      text.replace("MINE: ${AvailableTools}", "MINE: <tools>"),
    );
  });

  it("a tool whose name holds a `.` matches more than its name: such a ${…} is written $\\{…} too", async () => {
    const root = tempDir();
    const options = pinned(root, { agent: "gemini-cli" });
    mkdirSync(join(root, "project", ".git"));
    writeFileSync(
      join(root, "project", "AGENTS.md"),
      "A ${mcp_docs search_ToolName} B ${mcp_docs}search_ToolName} C ${HOME} D\n${x\n_ToolName}\n",
    );
    const text = (await renderSystemPrompt(options)).text;
    expect(geminiSubstitutes(text, ["mcp_docs.search"])).toBe(text);
    expect(text).toContain(
      "A $\\{mcp_docs search_ToolName} B $\\{mcp_docs}search_ToolName} C ${HOME}",
    );
    // A line break ends a tool's variable: `${x` stays as written.
    expect(text).toContain("D\n${x\n_ToolName}");
  });

  // Review rev42b (F4, low): your section writes a `$` before a variable a
  // project may set (`${{vars.budget}}`); the project's `{AgentSkills}` has
  // no `${` of its own, so it went in as written and the file held `${AgentSkills}`.
  it("a project's value starting with { after your own $ makes no ${…}", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/sections/usec.md": "---\norder: 5\n---\nBudget: ${{vars.budget}} a month.\n",
      "agent/sysprompt.yaml": 'vars:\n  mine: "500"\n',
      "project/.pi/sysprompt.yaml": 'vars:\n  budget: "{AgentSkills}"\n',
    });
    const options = pinned(root, { agent: "gemini-cli", projectTrusted: true, configFiles: true });
    const { text } = await renderSystemPrompt(options);
    expect(text).toContain("Budget: $\\{AgentSkills} a month.");
    expect(geminiSubstitutes(text, [])).not.toContain("<skills>");
  });

  it("other agents get the repository's text as written", async () => {
    for (const agent of ["claude-code", "codex", "opencode"])
      expect(await render(agent)).toContain(`RULE ${VARIABLES}`);
  });
});
