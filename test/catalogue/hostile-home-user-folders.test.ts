import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles, loadPromptTemplates, loadSkills } from "../../src/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { DESCRIBED, layout } from "./_home-in-checkout.js";

// With HOME at the checkout's root (a dev container's HOME=$PWD) or inside it
// (a CI job's HOME=$CI_PROJECT_DIR/.home), the agent dir was refused for an
// untrusted project, but ~/.agents/skills and other agents' user folders
// (~/.claude/rules) were still yours: their links were followed anywhere. A
// SKILL.md linked to any file with a `description:` put that description in
// the prompt, `expand "/skill:x"` printed the whole file, `list` showed it as
// yours (hostile-home-user-folders-cli). Every folder of yours under the home
// folder takes the agent dir's test now.

const untrusted = (cwd: string, home: string) =>
  renderSystemPrompt({ cwd, home, env: {}, projectTrusted: false, tools: ["read"] });

const codes = (r: Awaited<ReturnType<typeof untrusted>>) =>
  r.diagnostics.map((d) => d.code).filter((c) => c.endsWith("-in-project"));

describe("hostile repository: your folders under a home folder in the checkout", () => {
  it("HOME is the checkout's root: its .agents/skills link is not followed, from the root or a subfolder", async () => {
    const { project, home } = layout("root");
    for (const cwd of [project, join(project, "src")]) {
      const result = await untrusted(cwd, home);
      expect(result.text).not.toContain("LEAKED-DESCRIPTION");
      expect(codes(result)).toEqual(["agent-dir-in-project", "user-folder-in-project"]);
    }
  });

  it("HOME inside the checkout (.home): the same", async () => {
    const { project, home } = layout(".home");
    for (const cwd of [project, join(project, "src")]) {
      const result = await untrusted(cwd, home);
      expect(result.text).not.toContain("LEAKED-DESCRIPTION");
      expect(codes(result)).toEqual(["agent-dir-in-project", "user-folder-in-project"]);
    }
  });

  it("another agent's user folder (user:claude, ~/.claude/rules) there is not yours either", async () => {
    const { base, home, project } = layout(".home");
    writeFileSync(join(base, "secret", "id_rsa"), "SECRET-MARKER-KEY\n");
    mkdirSync(join(home, ".claude", "rules"), { recursive: true });
    symlinkSync(join(base, "secret", "id_rsa"), join(home, ".claude", "rules", "x.md"));
    const result = await renderSystemPrompt({
      cwd: project,
      home,
      env: {},
      projectTrusted: false,
      ruleSources: ["sysprompt", "user:claude"],
    });
    expect(result.text).not.toContain("SECRET-MARKER-KEY");
    const refused = result.diagnostics.filter((d) => d.code === "user-folder-in-project");
    expect(refused.map((d) => d.path)).toEqual([
      join(home, ".claude", "rules"),
      join(home, ".agents", "skills"),
    ]);
  });

  it("the library's loaders, called with no agent dir, read none the project holds", async () => {
    const { base, project, home } = layout("root");
    const agent = join(project, ".pi", "agent");
    mkdirSync(join(agent, "prompts"), { recursive: true });
    symlinkSync(join(base, "secret", "notes.md"), join(agent, "prompts", "x.md"));
    symlinkSync(join(base, "secret", "notes.md"), join(agent, "AGENTS.md"));
    const options = { cwd: join(project, "src"), home, projectTrusted: false };
    const [templates, context, skills] = await Promise.all([
      loadPromptTemplates(options),
      loadContextFiles(options),
      loadSkills(options),
    ]);
    expect(templates.templates).toEqual([]);
    expect(context.files.map((f) => f.content).join("\n")).not.toContain("SECRET-MARKER");
    expect(skills.skills).toEqual([]);
  });

  // Yours as before: its links followed within your home folder and agent dir, as every file of
  // yours (one linked out of both is refused, decided, review rev107a F2), not refused as the project's.
  it("trusted, or with HOME outside the checkout, ~/.agents/skills is yours as before", async () => {
    const { base, project, home } = layout("root");
    const trusted = await renderSystemPrompt({ cwd: project, home, env: {}, tools: ["read"] });
    expect(trusted.text).not.toContain("LEAKED-DESCRIPTION");
    expect(codes(trusted)).toEqual([]);
    const leak = join(home, ".agents", "skills", "leak", "SKILL.md");
    expect(trusted.diagnostics.find((d) => d.path === leak)?.message).toContain(
      "out of your home folder and your agent dir",
    );
    const elsewhere = join(base, "home");
    mkdirSync(join(elsewhere, ".agents", "skills", "mine"), { recursive: true });
    writeFileSync(join(elsewhere, "notes.md"), DESCRIBED);
    symlinkSync(
      join(elsewhere, "notes.md"),
      join(elsewhere, ".agents", "skills", "mine", "SKILL.md"),
    );
    const yours = await untrusted(project, elsewhere);
    expect(yours.text).toContain("LEAKED-DESCRIPTION");
    expect(codes(yours)).toEqual([]);
  });
});
