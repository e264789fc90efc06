import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// `--untrusted` imported a file git ignores through the `core.excludesFile` your git config
// names (`~/.gitignore_global`, the setup GitHub's docs recommend), and the tree listed it: only
// git's default `~/.config/git/ignore` was read. So was one a worktree's main repository's config
// names (review rev104a F1).

afterEach(() => {
  vi.unstubAllEnvs();
});

const MARKER = "SECRET-GCP-MARKER-104";

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=n", ...args], {
    cwd,
    stdio: "ignore",
  });
}

/** `<base>/proj`, a git repository importing service-account.json; `home` with no git config yet. */
function layout(): { base: string; home: string; project: string } {
  const base = tempDir();
  const home = join(base, "home");
  const project = join(base, "proj");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  mkdirSync(project, { recursive: true });
  git(project, "init", "-q", ".");
  writeFileSync(join(project, "service-account.json"), `{"private_key":"${MARKER}"}\n`);
  writeFileSync(join(project, "AGENTS.md"), "# Build\nSee @service-account.json\n");
  writeFileSync(join(home, ".gitignore_global"), "*.pem\nservice-account*.json\n");
  return { base, home, project };
}

const render = (home: string, cwd: string, env: Record<string, string> = {}) =>
  renderSystemPrompt({
    cwd,
    home,
    agentDir: join(home, ".pi", "agent"),
    env,
    projectTrusted: false,
    workspaceTree: true,
  });

function expectKept(result: Awaited<ReturnType<typeof render>>, why: string): void {
  expect(JSON.stringify(result)).not.toContain(MARKER);
  expect(result.text).toContain("AGENTS.md  ");
  expect(result.text).not.toContain("service-account.json  ");
  const refused = result.diagnostics.find((d) => d.code === "import-private");
  expect(refused?.message).toContain(why);
}

describe("hostile-excludesfile-named-import: the core.excludesFile your git config names", () => {
  it("~/.gitconfig names ~/.gitignore_global: the import is refused, the tree does not list it", async () => {
    vi.stubEnv("XDG_CONFIG_HOME", "");
    vi.stubEnv("GIT_CONFIG_GLOBAL", undefined);
    vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
    const { home, project } = layout();
    writeFileSync(join(home, ".gitconfig"), "[core]\n\texcludesfile = ~/.gitignore_global\n");
    expectKept(await render(home, project), "ignored by your global git excludes");
  });

  it("a worktree whose main repository's config names it", async () => {
    vi.stubEnv("XDG_CONFIG_HOME", "");
    vi.stubEnv("GIT_CONFIG_GLOBAL", undefined);
    vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
    const { base, home } = layout();
    const main = join(base, "main");
    mkdirSync(main);
    git(main, "init", "-q", ".");
    writeFileSync(join(main, "README.md"), "x\n");
    git(main, "add", "-A");
    git(main, "commit", "-qm", "x");
    git(main, "config", "core.excludesFile", join(home, ".gitignore_global"));
    const wt = join(base, "wt");
    git(main, "worktree", "add", "-q", wt);
    writeFileSync(join(wt, "service-account.json"), `{"private_key":"${MARKER}"}\n`);
    writeFileSync(join(wt, "AGENTS.md"), "# Build\nSee @service-account.json\n");
    expectKept(await render(home, wt), "ignored by your global git excludes");
  });

  it("a named excludes file that is a FIFO: nothing below is proven kept", async () => {
    vi.stubEnv("XDG_CONFIG_HOME", "");
    vi.stubEnv("GIT_CONFIG_GLOBAL", undefined);
    vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
    const { home, project } = layout();
    execFileSync("mkfifo", [join(home, "fifo-ignore")]);
    writeFileSync(join(home, ".gitconfig"), "[core]\n\texcludesfile = ~/fifo-ignore\n");
    const result = await render(home, project);
    expect(JSON.stringify(result)).not.toContain(MARKER);
    const refused = result.diagnostics.find((d) => d.code === "import-private");
    expect(refused?.message).toContain("ignore rules not read whole");
  });
});
