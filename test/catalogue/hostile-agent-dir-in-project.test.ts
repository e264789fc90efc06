import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// With HOME inside the checkout (a CI job may set it so), ~/.pi/agent is the
// project's `.home/.pi/agent`, and the agent dir is your user layer: its links
// are followed anywhere. A link AGENTS.md -> ~/.ssh/id_rsa put your key in the
// prompt of an untrusted project. An agent dir that lies in an untrusted
// project is not read as yours.

/** `<base>/project` (a git root) with `.home/.pi/agent/AGENTS.md`, a link to a secret outside it. */
function layout(): { base: string; project: string; home: string } {
  const base = tempDir();
  const project = join(base, "project");
  const agent = join(project, ".home", ".pi", "agent");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(agent, { recursive: true });
  mkdirSync(join(base, "secret"));
  writeFileSync(join(base, "secret", "id_rsa"), "SECRET-MARKER-KEY\n");
  writeFileSync(join(project, "AGENTS.md"), "# Project\n");
  symlinkSync(join(base, "secret", "id_rsa"), join(agent, "AGENTS.md"));
  writeFileSync(join(agent, "sysprompt.yaml"), "git: true\n");
  return { base, project, home: join(project, ".home") };
}

const codes = (r: Awaited<ReturnType<typeof renderSystemPrompt>>) =>
  r.diagnostics.map((d) => d.code).filter((c) => c.startsWith("agent-dir") || c.startsWith("git"));

describe("hostile repository: an agent dir inside the checkout is not your user layer", () => {
  it("HOME inside the checkout: its .pi/agent's link to a key is not followed", async () => {
    const { project, home } = layout();
    const result = await renderSystemPrompt({ cwd: project, home, env: {}, projectTrusted: false });
    expect(result.text).not.toContain("SECRET-MARKER-KEY");
    expect(codes(result)).toEqual(["agent-dir-in-project"]);
  });

  it("$SYSPROMPT_AGENT_DIR inside the checkout, from a folder below the root: the same", async () => {
    const { base, project, home } = layout();
    mkdirSync(join(project, "src"));
    const result = await renderSystemPrompt({
      cwd: join(project, "src"),
      home: join(base, "elsewhere"),
      env: { SYSPROMPT_AGENT_DIR: join(home, ".pi", "agent") },
      projectTrusted: false,
    });
    expect(result.text).not.toContain("SECRET-MARKER-KEY");
    expect(codes(result)).toEqual(["agent-dir-in-project"]);
  });

  it("HOME is the checkout's root, from a subfolder: its .pi/agent is the project's, as from the root", async () => {
    // A checkout cloned as the home folder (a dev container's HOME=$PWD): the repository nearest
    // the working folder is the home folder itself, so its agent dir is the project's.
    const { base, project } = layout();
    const agent = join(project, ".pi", "agent");
    mkdirSync(agent, { recursive: true });
    symlinkSync(join(base, "secret", "id_rsa"), join(agent, "AGENTS.md"));
    mkdirSync(join(project, "src"));
    for (const cwd of [project, join(project, "src")]) {
      const result = await renderSystemPrompt({
        cwd,
        home: project,
        env: {},
        projectTrusted: false,
      });
      expect(result.text).not.toContain("SECRET-MARKER-KEY");
      expect(codes(result)).toEqual(["agent-dir-in-project"]);
    }
    // A repository of its own nearer the working folder leaves the home folder's agent dir yours.
    mkdirSync(join(project, "src", ".git"));
    const own = await renderSystemPrompt({
      cwd: join(project, "src"),
      home: project,
      env: {},
      projectTrusted: false,
    });
    expect(codes(own)).not.toContain("agent-dir-in-project");
  });

  it("its sysprompt.yaml is not your config: git: true there does not turn the git section on", async () => {
    const { project, home } = layout();
    const result = await renderSystemPrompt({
      cwd: project,
      home,
      env: {},
      projectTrusted: false,
      configFiles: true,
    });
    // git would run (and say the empty .git is no repository): no git code at all.
    expect(codes(result)).toEqual(["agent-dir-in-project"]);
  });

  // Trusted, the agent dir is yours: its AGENTS.md is read as yours, and so held to your home
  // folder and agent dir like any file of yours (its link to the key out of both refused,
  // decided, review rev107a F2), not refused as the project's.
  it("a trusted project's, and an agent dir outside the project, are still read", async () => {
    const { base, project, home } = layout();
    const trusted = await renderSystemPrompt({ cwd: project, home, env: {} });
    expect(trusted.text).not.toContain("SECRET-MARKER-KEY");
    expect(codes(trusted)).toEqual([]);
    expect(
      trusted.diagnostics.find((d) => d.path === join(home, ".pi", "agent", "AGENTS.md"))?.message,
    ).toContain("out of your home folder and your agent dir");
    const outside = join(base, "agent");
    mkdirSync(outside);
    writeFileSync(join(outside, "AGENTS.md"), "Your own rule.\n");
    const yours = await renderSystemPrompt({
      cwd: project,
      home,
      agentDir: outside,
      env: {},
      projectTrusted: false,
    });
    expect(yours.text).toContain("Your own rule.");
    expect(codes(yours)).toEqual([]);
  });
});
