import { mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// The git-folder refusal (review rev108b F2) looked for a `.git` name below a checkout's root, so
// a git folder of yours by another name was read from your agent dir as instructions: a bare
// dotfiles repository `~/.cfg`, a bare mirror `~/repos/app.git`, a `--separate-git-dir`
// `~/gitdirs/app2`, and your agent dir's own `.git` (it is yours, no checkout): `render
// --untrusted` printed their remotes' tokens, `expand /cfg` too (review rev109f F2). A git folder
// is now known by its contents, as git knows one (a `HEAD` file, `objects/` and `refs/`), on the
// real path's folders, and any file in one is refused, trusted or not.

const TOKENS = [
  "SECRET-CFG-MARKER",
  "SECRET-BARE-MARKER",
  "SECRET-SEP-MARKER",
  "SECRET-OWN-MARKER",
];

function gitFolder(dir: string, token: string): void {
  put(join(dir, "HEAD"), "ref: refs/heads/master\n");
  mkdirSync(join(dir, "objects/info"), { recursive: true });
  mkdirSync(join(dir, "refs/heads"), { recursive: true });
  put(join(dir, "config"), `[remote "origin"]\n\turl = https://u:${token}@example.com/x.git\n`);
}

function layout() {
  const root = tempDir();
  const home = join(root, "home");
  const agentDir = join(home, ".pi/agent");
  put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
  put(join(root, "project/AGENTS.md"), "# PROJECT-OWN-MARKER\n");
  gitFolder(join(home, ".cfg"), "SECRET-CFG-MARKER");
  gitFolder(join(home, "repos/app.git"), "SECRET-BARE-MARKER");
  gitFolder(join(home, "gitdirs/app2"), "SECRET-SEP-MARKER");
  put(join(home, "work/app2/.git"), `gitdir: ${join(home, "gitdirs/app2")}\n`);
  gitFolder(join(agentDir, ".git"), "SECRET-OWN-MARKER");
  // A checkout's own bare mirror, below its root by another name than `.git`.
  put(join(home, "work/mono/.git/HEAD"), "ref: refs/heads/main\n");
  gitFolder(join(home, "work/mono/mirrors/x.git"), "SECRET-MONO-MARKER");
  const link = (target: string, rel: string) => {
    mkdirSync(dirname(join(agentDir, rel)), { recursive: true });
    symlinkSync(target, join(agentDir, rel));
  };
  link(join(home, "repos/app.git/config"), "AGENTS.md");
  link(join(home, "gitdirs/app2/config"), "APPEND_SYSTEM.md");
  link(join(home, ".cfg/HEAD"), "SYSTEM.md");
  link(join(home, ".cfg/config"), "prompts/cfg.md");
  link(join(agentDir, ".git/config"), "prompts/own.md");
  link(join(home, "work/mono/mirrors/x.git/config"), "prompts/mono.md");
  put(join(agentDir, "prompts/mine.md"), "MINE-109 $1\n");
  return { root, home, agentDir };
}

const ALL = [...TOKENS, "SECRET-MONO-MARKER", "refs/heads/master"];

describe("hostile-home-git-folder-other-name: your agent dir links into a git folder not named .git", () => {
  for (const projectTrusted of [false, true]) {
    const how = projectTrusted ? "trusted" : "untrusted";
    it(`${how}: render reads none of them, and says each is in a git folder`, async () => {
      const { root, home, agentDir } = layout();
      const result = await renderIn(root, agentDir, { home, projectTrusted });
      for (const secret of ALL) expect(JSON.stringify(result)).not.toContain(secret);
      expect(result.text).toContain("PROJECT-OWN-MARKER");
      for (const rel of ["AGENTS.md", "APPEND_SYSTEM.md", "SYSTEM.md"]) {
        const said = result.diagnostics.find((d) => d.path === join(agentDir, rel));
        expect(said?.message, rel).toContain("inside the git folder");
      }
    });

    it(`${how}: prompt templates linked there, both loaders`, async () => {
      const { root, home, agentDir } = layout();
      const options = { cwd: join(root, "project"), agentDir, home, projectTrusted };
      const loaded = [await loadPromptTemplates(options), loadPromptTemplatesSync(options)];
      for (const [at, r] of loaded.entries()) {
        for (const secret of ALL) expect(JSON.stringify(r)).not.toContain(secret);
        const names = r.templates.map((t) => t.name);
        expect(names).toContain("mine");
        for (const name of ["cfg", "own", "mono"]) expect(names).not.toContain(name);
        // Untrusted, the synchronous loader refuses a checkout's file in its own words first.
        if (at === 1 && !projectTrusted) continue;
        for (const name of ["cfg", "own", "mono"]) {
          const said = r.diagnostics.find((d) => d.path === join(agentDir, `prompts/${name}.md`));
          expect(said?.message, name).toContain("inside the git folder");
        }
      }
    });
  }
});
