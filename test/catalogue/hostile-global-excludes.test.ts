import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// A file git ignores is private to an untrusted project, and your global git
// excludes (`~/.config/git/ignore`, git's default core.excludesFile) are part
// of what git ignores: they were never read, so a credentials file you keep
// out of every repository came in through the project's `@credentials.json`
// or an AGENTS.md link to it.

afterEach(() => {
  vi.unstubAllEnvs();
});

/** `<base>/project` (a git root) importing and linking credentials.json; your ignore file names it. */
function layout(ignoreAt: (base: string) => string): { base: string; project: string } {
  const base = tempDir();
  const project = join(base, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "sub"));
  writeFileSync(join(project, "credentials.json"), '{"token": "MARKER-CRED"}\n');
  writeFileSync(join(project, "AGENTS.md"), "# Project\n@credentials.json\n");
  symlinkSync("../credentials.json", join(project, "sub", "AGENTS.md"));
  const ignore = ignoreAt(base);
  mkdirSync(join(ignore, ".."), { recursive: true });
  writeFileSync(ignore, "credentials.json\n");
  mkdirSync(join(base, "home", ".pi", "agent"), { recursive: true });
  return { base, project };
}

const render = (base: string, cwd: string) =>
  renderSystemPrompt({
    cwd,
    home: join(base, "home"),
    agentDir: join(base, "home", ".pi", "agent"),
    env: {},
    projectTrusted: false,
  });

const refusals = (r: Awaited<ReturnType<typeof render>>) =>
  r.diagnostics
    .filter((d) => d.code.endsWith("-private"))
    .map((d) => [d.code, d.message.includes("ignored by your global git excludes")]);

describe("hostile repository: your global git excludes keep a file private", () => {
  it("~/.config/git/ignore: the import and the link are refused", async () => {
    vi.stubEnv("XDG_CONFIG_HOME", "");
    const { base, project } = layout((b) => join(b, "home", ".config", "git", "ignore"));
    const result = await render(base, project);
    expect(result.text).not.toContain("MARKER-CRED");
    expect(refusals(result)).toEqual([["import-private", true]]);
    const below = await render(base, join(project, "sub"));
    expect(below.text).not.toContain("MARKER-CRED");
    expect(refusals(below)).toContainEqual(["context-private", true]);
  });

  it("$XDG_CONFIG_HOME/git/ignore, and a repository's !credentials.json does not take it back", async () => {
    const { base, project } = layout((b) => join(b, "xdg", "git", "ignore"));
    vi.stubEnv("XDG_CONFIG_HOME", join(base, "xdg"));
    writeFileSync(join(project, ".gitignore"), "!credentials.json\n");
    const result = await render(base, project);
    expect(result.text).not.toContain("MARKER-CRED");
    expect(refusals(result)).toEqual([["import-private", true]]);
  });

  it("an ignore file inside the project (HOME inside the checkout) is the project's, not yours", async () => {
    vi.stubEnv("XDG_CONFIG_HOME", "");
    const { project } = layout((b) => join(b, "project", ".home", ".config", "git", "ignore"));
    const result = await renderSystemPrompt({
      cwd: project,
      home: join(project, ".home"),
      agentDir: join(project, "..", "home", ".pi", "agent"),
      env: {},
      projectTrusted: false,
    });
    expect(refusals(result)).toEqual([]);
  });
});
