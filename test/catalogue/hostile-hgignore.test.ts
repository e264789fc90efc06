import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// rev68a F3: in an untrusted Mercurial working copy (`.hg/` marks its top), the
// files its `.hgignore` names are your local files, as git's ignored files are;
// only git's ignore rules were read, so `@secrets.yml` put your password in the
// prompt and the workspace tree listed the file. Mercurial need not be
// installed: the door never runs hg, so `.hg/` and `.hgignore` are made by hand.

function hgProject(hgignore: string, files: Record<string, string>) {
  const base = tempDir();
  const project = join(base, "project");
  mkdirSync(join(project, ".hg"), { recursive: true });
  writeFileSync(join(project, ".hg", "requires"), "store\n");
  writeFileSync(join(project, ".hgignore"), hgignore);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(project, path, ".."), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  mkdirSync(join(base, "home", ".pi", "agent"), { recursive: true });
  return { base, project };
}

const render = (base: string, project: string, trusted = false) =>
  renderSystemPrompt({
    cwd: project,
    home: join(base, "home"),
    agentDir: join(base, "home", ".pi", "agent"),
    env: {},
    projectTrusted: trusted,
    workspaceTree: true,
    treeMtime: "2026-01-10T09:00:00Z",
  });

const privateWhy = (r: Awaited<ReturnType<typeof render>>) =>
  r.diagnostics.filter((d) => d.code.endsWith("-private")).map((d) => d.message);

describe("hostile repository: a Mercurial working copy's .hgignore keeps your files private", () => {
  it("syntax: glob names secrets.yml: the import is refused and the tree does not list it", async () => {
    const { base, project } = hgProject("syntax: glob\nsecrets.yml\n", {
      "AGENTS.md": "Local settings: @secrets.yml\n",
      "secrets.yml": "db_password: SECRET-HG-MARKER\n",
    });
    const result = await render(base, project);
    expect(result.text).not.toContain("SECRET-HG-MARKER");
    expect(result.text).not.toMatch(/secrets\.yml\s+\d+B/);
    expect(privateWhy(result)).toEqual([
      expect.stringContaining("ignored by Mercurial (.hgignore)"),
    ]);
  });

  it("the default regexp syntax, a folder pattern and a link to the ignored file", async () => {
    const { base, project } = hgProject("# local\n^local/\n\\.env\\.[a-z]+$\n", {
      "AGENTS.md": "@local/keys.md\n@cfg.md\n",
      "local/keys.md": "KEY-HG-MARKER\n",
      ".env.prod": "ENV-HG-MARKER\n",
      "docs/AGENTS.md": "Docs.\n",
    });
    symlinkSync(".env.prod", join(project, "cfg.md"));
    const result = await render(base, project);
    expect(result.text).not.toContain("KEY-HG-MARKER");
    expect(result.text).not.toContain("ENV-HG-MARKER");
    expect(privateWhy(result)).toHaveLength(2);
    expect(privateWhy(result)[0]).toContain("ignored by Mercurial (.hgignore)");
  });

  it("a line it cannot read (a back-reference) refuses what it might hide, naming the line", async () => {
    const { base, project } = hgProject("syntax: regexp\n(a)\\1\n", {
      "AGENTS.md": "@notes.md\n",
      "notes.md": "NOTES-HG-MARKER\n",
    });
    const result = await render(base, project);
    expect(result.text).not.toContain("NOTES-HG-MARKER");
    expect(privateWhy(result)[0]).toContain(".hgignore line 2");
    // Trusted, the working copy's files are read as before.
    expect((await render(base, project, true)).text).toContain("NOTES-HG-MARKER");
  });

  it("a file .hgignore does not name is read; trusted, the ignored one too", async () => {
    const { base, project } = hgProject("syntax: glob\n*.local\n", {
      "AGENTS.md": "@notes.md\n",
      "notes.md": "NOTES-HG-MARKER\n",
    });
    expect((await render(base, project)).text).toContain("NOTES-HG-MARKER");
  });
});
