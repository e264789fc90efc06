import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles } from "../../src/gather/context/context-files.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Links are made at test time in a temp folder: git does not keep them well
// across platforms, and a link out of the checkout would point nowhere.

const outside = (path: string, real: string, root: string) => ({
  level: "warning",
  code: "context-outside-project",
  message: `not loaded: it resolves to ${real}, outside the project root ${root}`,
  path,
});

/** `<root>/project` (a git checkout with `sub/`), `<root>/secret/credentials`, `<root>/agent`. */
function layout(): { root: string; project: string; secret: string } {
  const root = tempDir();
  const project = join(root, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "sub"));
  mkdirSync(join(root, "secret"));
  mkdirSync(join(root, "agent"));
  const secret = join(root, "secret", "credentials");
  writeFileSync(secret, "aws_secret_access_key = hunter2");
  return { root, project, secret };
}

describe("context files of an untrusted project", () => {
  it("a link out of the project root is not loaded and gets a warning", async () => {
    const { root, project, secret } = layout();
    symlinkSync(secret, join(project, "AGENTS.md"));
    const options = { cwd: project, agentDir: join(root, "agent") };
    expect(await loadContextFiles({ ...options, projectTrusted: false })).toEqual({
      files: [],
      diagnostics: [outside(join(project, "AGENTS.md"), secret, project)],
    });
  });

  it("a trusted project does not follow the link out of its root either", async () => {
    const { root, project, secret } = layout();
    symlinkSync(secret, join(project, "AGENTS.md"));
    expect(await loadContextFiles({ cwd: project, agentDir: join(root, "agent") })).toEqual({
      files: [],
      diagnostics: [
        {
          level: "warning",
          code: "context-outside-project",
          message: `not loaded: it resolves to ${secret}, outside the project root ${project}`,
          path: join(project, "AGENTS.md"),
        },
      ],
    });
  });

  it("links that stay inside the project root load, from any folder below it", async () => {
    const { root, project } = layout();
    mkdirSync(join(project, "docs"));
    writeFileSync(join(project, "docs", "agents.md"), "Shared by the project.");
    symlinkSync("docs/agents.md", join(project, "AGENTS.md"));
    writeFileSync(join(project, "docs", "sub.md"), "For sub.");
    symlinkSync("../docs/sub.md", join(project, "sub", "CLAUDE.md"));
    expect(
      await loadContextFiles({
        cwd: join(project, "sub"),
        agentDir: join(root, "agent"),
        projectTrusted: false,
      }),
    ).toEqual({
      files: [
        { path: `${project}/AGENTS.md`, content: "Shared by the project.", origin: "project" },
        { path: `${project}/sub/CLAUDE.md`, content: "For sub.", origin: "project" },
      ],
      diagnostics: [],
    });
  });

  it("a link from below cwd's folder up to the root's parent escapes, even from a subfolder", async () => {
    const { root, project, secret } = layout();
    symlinkSync("../../secret/credentials", join(project, "sub", "AGENTS.md"));
    expect(
      await loadContextFiles({
        cwd: join(project, "sub"),
        agentDir: join(root, "agent"),
        projectTrusted: false,
      }),
    ).toEqual({
      files: [],
      diagnostics: [outside(join(project, "sub", "AGENTS.md"), secret, project)],
    });
  });

  it("above the project root: a file loads while it stays in its own project (its folder, without .git)", async () => {
    const { root } = layout();
    // root/AGENTS.md, above the project, is its own project: loads, also through a link that
    // stays in root/. root/secret/AGENTS.md -> ../other.md leaves root/secret/: refused.
    mkdirSync(join(root, "notes"));
    writeFileSync(join(root, "notes", "agents.md"), "The user's own rules.");
    symlinkSync("notes/agents.md", join(root, "AGENTS.md"));
    writeFileSync(join(root, "other.md"), "Beside secret/, not in it.");
    symlinkSync("../other.md", join(root, "secret", "AGENTS.md"));
    const inner = join(root, "secret", "proj");
    mkdirSync(join(inner, ".git"), { recursive: true });
    writeFileSync(join(inner, "AGENTS.md"), "The project itself.");
    expect(
      await loadContextFiles({ cwd: inner, agentDir: join(root, "agent"), projectTrusted: false }),
    ).toEqual({
      files: [
        { path: `${root}/AGENTS.md`, content: "The user's own rules.", origin: "project" },
        { path: `${inner}/AGENTS.md`, content: "The project itself.", origin: "project" },
      ],
      diagnostics: [
        outside(join(root, "secret", "AGENTS.md"), join(root, "other.md"), join(root, "secret")),
      ],
    });
  });

  it("without .git the project root is cwd: a link to its parent folder escapes", async () => {
    const root = tempDir();
    const cwd = join(root, "work");
    mkdirSync(cwd);
    writeFileSync(join(root, "shared.md"), "Outside the working directory.");
    symlinkSync("../shared.md", join(cwd, "AGENTS.md"));
    expect(
      await loadContextFiles({ cwd, agentDir: join(root, "agent"), projectTrusted: false }),
    ).toEqual({
      files: [],
      diagnostics: [outside(join(cwd, "AGENTS.md"), join(root, "shared.md"), cwd)],
    });
  });

  // Within your home folder and agent dir: a link out of both is refused, whatever the trust
  // (decided, review rev107a F2: a kit cloned as your agent dir linked its AGENTS.md to
  // /run/secrets).
  it("the agent dir's file is the user's: links from it are followed within your home", async () => {
    const { root, project, secret } = layout();
    symlinkSync(secret, join(root, "agent", "AGENTS.md"));
    const agentDir = join(root, "agent");
    const out = await loadContextFiles({
      cwd: project,
      agentDir,
      home: join(root, "home"),
      projectTrusted: false,
    });
    expect(out.files).toEqual([]);
    expect(out.diagnostics.map((d) => [d.path, d.code])).toEqual([
      [join(agentDir, "AGENTS.md"), "file-outside-project"],
    ]);
    expect(out.diagnostics[0]?.message).toContain("out of your home folder and your agent dir");
    expect(
      await loadContextFiles({ cwd: project, agentDir, home: root, projectTrusted: false }),
    ).toEqual({
      files: [
        {
          path: `${root}/agent/AGENTS.md`,
          origin: "user",
          content: "aws_secret_access_key = hunter2",
        },
      ],
      diagnostics: [],
    });
  });

  it("renderSystemPrompt with projectTrusted: false keeps the credentials out of the prompt", async () => {
    const { root, project, secret } = layout();
    symlinkSync(secret, join(project, "AGENTS.md"));
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).not.toContain("hunter2");
    expect(result.sections.map((s) => s.name)).not.toContain("project_context");
    expect(result.diagnostics.filter((d) => d.code === "context-outside-project")).toEqual([
      outside(join(project, "AGENTS.md"), secret, project),
    ]);
  });
});
