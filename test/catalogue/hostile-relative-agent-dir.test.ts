import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NOW, pinned, tempDir } from "../api/_helpers.js";

// A relative $SYSPROMPT_AGENT_DIR was resolved against the working folder,
// which is the project's: `cd project && SYSPROMPT_AGENT_DIR=.pi/agent
// sysprompt render --untrusted` made the project's .pi/agent the user layer,
// whose links are followed anywhere, and a link to ~/.ssh/id_rsa put the key
// in the prompt. Review of issue 24 (lows). Now ignored with a warning, as a
// relative XDG folder is; --agent-dir as typed stays relative to cwd.

const MARKER = "SECRET-MARKER-relative-agent-dir";

/** A home with a marker key and a project whose .pi/agent links to it. */
function setUp(): { root: string; project: string; home: string } {
  const root = tempDir();
  const home = join(root, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), `${MARKER}\n`);
  const project = join(root, "project");
  const agent = join(project, ".pi", "agent");
  mkdirSync(agent, { recursive: true });
  // A checkout: without a .git, a home folder beside it in a folder of the user's could be
  // the project's too (see hostile-home-around-project), and its agent dir left out.
  mkdirSync(join(project, ".git"));
  symlinkSync(join(home, ".ssh", "id_rsa"), join(agent, "APPEND_SYSTEM.md"));
  symlinkSync(join(home, ".ssh", "id_rsa"), join(agent, "AGENTS.md"));
  return { root, project, home };
}

async function cliRender(
  project: string,
  home: string,
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await run(["render", "--now", NOW, "--untrusted", ...argv], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: project,
    env,
    home,
    machine: { platform: "linux", arch: "x64" },
  });
  return { code, stdout, stderr };
}

describe("hostile-relative-agent-dir: a relative $SYSPROMPT_AGENT_DIR is not the project's folder", () => {
  it("render --untrusted with SYSPROMPT_AGENT_DIR=.pi/agent leaves the linked key out, and says why", async () => {
    const { project, home } = setUp();
    const out = await cliRender(project, home, [], { SYSPROMPT_AGENT_DIR: ".pi/agent" });
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain(MARKER);
    expect(out.stderr).toContain("agent-dir-relative");
    expect(out.stderr).toContain("$SYSPROMPT_AGENT_DIR is ignored");
  });

  it("the library ignores it too, with the warning diagnostic", async () => {
    const { root, project, home } = setUp();
    const { agentDir: _, ...options } = pinned(root, { cwd: project, home, projectTrusted: false });
    const result = await renderSystemPrompt({
      ...options,
      env: { SYSPROMPT_AGENT_DIR: ".pi/agent" },
    });
    expect(result.text).not.toContain(MARKER);
    expect(result.diagnostics.filter((d) => d.code === "agent-dir-relative")).toEqual([
      {
        level: "warning",
        code: "agent-dir-relative",
        message:
          '$SYSPROMPT_AGENT_DIR is ignored: ".pi/agent" is a relative path, which would be read from the working folder (the project\'s); the user layer is ~/.pi/agent. Give an absolute path, or ~/…',
      },
    ]);
  });

  it("an absolute or ~ value is still the user layer, with no warning", async () => {
    const { root, project, home } = setUp();
    const agent = join(home, ".pi", "agent");
    mkdirSync(agent, { recursive: true });
    writeFileSync(join(agent, "APPEND_SYSTEM.md"), "From the user's own agent dir.\n");
    const { agentDir: _, ...options } = pinned(root, { cwd: project, home, projectTrusted: false });
    for (const value of [agent, "~/.pi/agent"]) {
      const result = await renderSystemPrompt({ ...options, env: { SYSPROMPT_AGENT_DIR: value } });
      expect(result.text).toContain("From the user's own agent dir.");
      expect(result.diagnostics.some((d) => d.code === "agent-dir-relative")).toBe(false);
    }
  });

  it("--agent-dir .pi/agent, typed by the user, is no relative variable, but lies in the untrusted project", async () => {
    // rev53d F1: a named agent dir in the working folder or the project root is the project's.
    const { project, home } = setUp();
    const out = await cliRender(project, home, ["--agent-dir", ".pi/agent"], {
      SYSPROMPT_AGENT_DIR: "elsewhere",
    });
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain(MARKER);
    expect(out.stderr).toContain("agent-dir-in-project");
    expect(out.stderr).not.toContain("agent-dir-relative");
  });
});
