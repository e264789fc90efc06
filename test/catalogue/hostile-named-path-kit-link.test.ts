import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates } from "../../src/prompt-templates/load.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import {
  gitRepository,
  homeWithKey,
  KEY,
  linkKit,
  rendered,
  TOKEN,
  workingCopy,
} from "./_nested.js";
import { cli } from "./_output-link.js";

// A prompt kit cloned in your home (~/src/prompt-kit) commits `base.md -> ../../.ssh/id_rsa`
// and `out -> ../../.config`. Named by its own path it was refused (hostile-named-path-other-repo),
// but the rule looked for the kit's `.git` only on the folders of the path AS WRITTEN, and stopped
// at the first link below the home folder. Reached through YOUR link (to its root placed in a
// subfolder of home, `~/.config/sysprompt/kit`, the stow layout; to a kit subfolder; to a kit
// file) or from your own agent dir's AGENTS.md `@~/src/prompt-kit/base.md`, the kit's link out was
// followed: your key in the prompt (`--untrusted` too), and `-o` through the kit's `out` link
// replaced ~/.config/opencode/AGENTS.md. A kit cloned INSIDE your trusted project (a git-ignored
// `tools/prompt-kit`, or a submodule `tools/kit`) read your project's `.git/config` (remote token)
// and `.env` through its links: the project's door held only where a link LEADS, not the
// repository it LIES in. Now a link that lies in a repository that is not yours (neither the
// home's own repository nor the working folder's) leads only within it, decided on real folders,
// link by link. Review rev43a F1 (high) and F2 (high).

const ENV = "SECRET-MARKER-ENV";

/** Your home under `root` with a key, your project ~/proj, and the kit ~/src/prompt-kit with your links to it. */
function layout(root: string) {
  const home = homeWithKey(root);
  const proj = join(home, "proj");
  const kit = join(home, "src", "prompt-kit");
  gitRepository(proj);
  gitRepository(kit);
  mkdirSync(join(kit, "prompts"));
  symlinkSync("../../.ssh/id_rsa", join(kit, "base.md"));
  symlinkSync("../../../.ssh/id_rsa", join(kit, "prompts", "base.md"));
  symlinkSync("../../.config", join(kit, "out"));
  writeFileSync(join(kit, "plain.md"), "KIT-PLAIN-MARKER\n");
  writeFileSync(join(kit, "prompts", "plain.md"), "KIT-TEMPLATE-MARKER\n");
  mkdirSync(join(home, ".config", "sysprompt"), { recursive: true });
  mkdirSync(join(home, ".config", "opencode"), { recursive: true });
  writeFileSync(join(home, ".config", "opencode", "AGENTS.md"), "MY-GLOBAL-RULES\n");
  // Your links: to the kit root in a subfolder of home, to a kit subfolder, to a kit file.
  linkKit(home, "kit", kit);
  symlinkSync(join(kit, "prompts"), join(home, "kitprompts"));
  symlinkSync(join(kit, "base.md"), join(home, "base.md"));
  mkdirSync(join(root, "agent"), { recursive: true });
  return { home, proj, kit };
}

describe("hostile-named-path-kit-link: a kit's committed link leads only within the kit, however you reach it", () => {
  for (const projectTrusted of [true, false]) {
    it(`your links to the kit root, a kit subfolder, a kit file: its link to your key is refused (${projectTrusted ? "trusted" : "untrusted"})`, async () => {
      const root = tempDir();
      const { proj, kit } = layout(root);
      for (const named of [
        { appendSystemPrompt: "~/.config/sysprompt/kit/base.md" }, // b: your link to the root
        { systemPrompt: "~/.config/sysprompt/kit/base.md" },
        { appendSystemPrompt: "~/kitprompts/base.md" }, // a: your link to a kit subfolder
        { appendSystemPrompt: "~/base.md" }, // d: your link to a kit file
        { appendSystemPrompt: "../.config/sysprompt/kit/prompts/base.md" },
      ]) {
        const text = await rendered(pinned(root, { cwd: proj, projectTrusted, ...named }));
        expect(text, JSON.stringify(named)).not.toContain(KEY);
        expect(text, JSON.stringify(named)).toMatch(
          new RegExp(`^refused: .*outside the project root ${kit}`),
        );
      }
      // The kit's plain file through your link is yours to name.
      const plain = await rendered(
        pinned(root, {
          cwd: proj,
          projectTrusted,
          appendSystemPrompt: "~/.config/sysprompt/kit/plain.md",
        }),
      );
      expect(plain).toContain("KIT-PLAIN-MARKER");
    });
  }

  it("a kit cloned with Mercurial or Subversion, reached through your link: its link to your key is refused", async () => {
    const root = tempDir();
    const { home, proj } = layout(root);
    for (const vcs of ["hg", "svn"] as const) {
      const kit = join(home, "src", `kit-${vcs}`);
      workingCopy(vcs, kit);
      symlinkSync("../../.ssh/id_rsa", join(kit, "base.md"));
      linkKit(home, vcs, kit);
      const text = await rendered(
        pinned(root, { cwd: proj, appendSystemPrompt: `~/.config/sysprompt/${vcs}/base.md` }),
      );
      expect(text, vcs).not.toContain(KEY);
      expect(text, vcs).toMatch(new RegExp(`^refused: .*outside the project root ${kit}`));
    }
  });

  it("loadPromptTemplates through your link to the kit: its template linked to your key is not loaded", async () => {
    const root = tempDir();
    const { home, proj } = layout(root);
    for (const named of ["~/.config/sysprompt/kit/prompts", "~/kitprompts"]) {
      const loaded = await loadPromptTemplates({
        cwd: proj,
        home,
        agentDir: join(root, "agent"),
        env: {},
        includeDefaults: false,
        paths: [named],
      });
      const bodies = loaded.templates.map((t) => t.content).join("\n");
      expect(bodies, named).not.toContain(KEY);
      expect(bodies, named).toContain("KIT-TEMPLATE-MARKER");
      expect(loaded.diagnostics.map((d) => d.code)).toContain("file-outside-project");
    }
  });

  it("c: your own AGENTS.md importing a kit file does not follow the kit's link, nor the kit file's imports out of it", async () => {
    const root = tempDir();
    const { home, proj, kit } = layout(root);
    writeFileSync(join(kit, "rules.md"), "KIT-RULES-MARKER\n@../../.ssh/id_rsa\n");
    writeFileSync(
      join(root, "agent", "AGENTS.md"),
      "MY-RULES\n@~/src/prompt-kit/base.md\n@~/base.md\n@~/src/prompt-kit/rules.md\n",
    );
    const result = await renderSystemPrompt(pinned(root, { cwd: proj, home }));
    expect(result.text).toContain("MY-RULES");
    expect(result.text).toContain("KIT-RULES-MARKER");
    expect(result.text).not.toContain(KEY);
    const refused = result.diagnostics.filter((d) => d.code === "import-outside");
    expect(refused.map((d) => d.message).join("\n")).toContain(`a link of the repository ${kit}`);
    expect(refused).toHaveLength(3);
  });

  it("your agent dir's AGENTS.md your link to a kit file: the kit's link out is not followed; a stowed AGENTS.md and its imports still are", async () => {
    const root = tempDir();
    const { home, proj, kit } = layout(root);
    symlinkSync("../../.ssh/id_rsa", join(kit, "AGENTS.md"));
    symlinkSync(join(kit, "AGENTS.md"), join(root, "agent", "AGENTS.md"));
    const result = await renderSystemPrompt(pinned(root, { cwd: proj, home }));
    expect(result.text).not.toContain(KEY);
    const refused = result.diagnostics.find((d) => d.code === "context-outside-project");
    expect(refused?.message).toContain(`a link of the repository ${kit}`);
    // Stow: your AGENTS.md a link into your dotfiles repository's package mirroring your home
    // (~/dotfiles/pi/.pi/agent/AGENTS.md), importing a file beside it and your notes.
    const dot = join(home, "dotfiles", "pi", ".pi", "agent");
    gitRepository(join(home, "dotfiles"));
    mkdirSync(dot, { recursive: true });
    mkdirSync(join(home, "notes"));
    writeFileSync(join(home, "notes", "n.md"), "NOTES-MARKER\n");
    writeFileSync(join(dot, "rules.md"), "STOW-RULES-MARKER\n@~/notes/n.md\n");
    writeFileSync(join(dot, "AGENTS.md"), "STOW-AGENTS-MARKER\n@./rules.md\n");
    const agent = join(home, ".pi", "agent");
    mkdirSync(agent, { recursive: true });
    symlinkSync("../../dotfiles/pi/.pi/agent/AGENTS.md", join(agent, "AGENTS.md"));
    const stowed = await renderSystemPrompt(pinned(root, { cwd: proj, home, agentDir: agent }));
    expect(stowed.text).toContain("STOW-AGENTS-MARKER");
    expect(stowed.text).toContain("STOW-RULES-MARKER");
    expect(stowed.text).toContain("NOTES-MARKER");
  });

  for (const agentInHome of [false, true]) {
    it(`F1: your AGENTS.md your link to a kit's plain AGENTS.md: the kit is not yours, its imports stay within it (agent dir ${agentInHome ? "~/.pi/agent" : "elsewhere"})`, async () => {
      const root = tempDir();
      const { home, proj, kit } = layout(root);
      mkdirSync(join(home, ".aws"));
      writeFileSync(join(home, ".aws", "credentials"), "SECRET-MARKER-AWS\n");
      symlinkSync("../../.aws", join(kit, "sub"));
      writeFileSync(
        join(kit, "AGENTS.md"),
        "KIT-AGENTS-MARKER\n@base.md\n@sub/credentials\n@~/.ssh/id_rsa\n@plain.md\n",
      );
      const agent = agentInHome ? join(home, ".pi", "agent") : join(root, "agent");
      mkdirSync(agent, { recursive: true });
      symlinkSync(join(kit, "AGENTS.md"), join(agent, "AGENTS.md"));
      for (const projectTrusted of [true, false]) {
        const result = await renderSystemPrompt(
          pinned(root, { cwd: proj, home, agentDir: agent, projectTrusted }),
        );
        expect(result.text).toContain("KIT-AGENTS-MARKER");
        expect(result.text).toContain("KIT-PLAIN-MARKER");
        expect(result.text).not.toContain(KEY);
        expect(result.text).not.toContain("SECRET-MARKER-AWS");
        const refused = result.diagnostics.filter((d) => d.code === "import-outside");
        expect(refused).toHaveLength(3);
      }
    });
  }

  it("F3: your AGENTS.md importing a kit file that links to the kit's own .git/config or .env: held when untrusted", async () => {
    const root = tempDir();
    const { home, proj, kit } = layout(root);
    writeFileSync(
      join(kit, ".git", "config"),
      `[remote "origin"]\n\turl = https://${TOKEN}@example.com/kit\n`,
    );
    writeFileSync(join(kit, ".gitignore"), ".env\n");
    writeFileSync(join(kit, ".env"), `${ENV}\n`);
    symlinkSync(".git/config", join(kit, "tok.md"));
    symlinkSync(".env", join(kit, "env.md"));
    writeFileSync(join(kit, "rules.md"), "KIT-RULES-MARKER\n@.env\n");
    writeFileSync(
      join(root, "agent", "AGENTS.md"),
      "MY-RULES\n@~/src/prompt-kit/tok.md\n@~/src/prompt-kit/env.md\n@~/src/prompt-kit/rules.md\n",
    );
    const untrusted = await renderSystemPrompt(
      pinned(root, { cwd: proj, home, projectTrusted: false }),
    );
    expect(untrusted.text).toContain("MY-RULES");
    expect(untrusted.text).toContain("KIT-RULES-MARKER");
    expect(untrusted.text).not.toContain(TOKEN);
    expect(untrusted.text).not.toContain(ENV);
    // Your link to the kit's AGENTS.md, itself a link to its .git/config: the same door.
    writeFileSync(join(root, "agent", "AGENTS.md"), "");
    symlinkSync(".git/config", join(kit, "AGENTS.md"));
    const agent = join(root, "agent2");
    mkdirSync(agent);
    symlinkSync(join(kit, "AGENTS.md"), join(agent, "AGENTS.md"));
    const linked = await renderSystemPrompt(
      pinned(root, { cwd: proj, home, agentDir: agent, projectTrusted: false }),
    );
    expect(linked.text).not.toContain(TOKEN);
  });

  it("F2: started inside the kit (or a monorepo), your AGENTS.md's import of its file does not follow its link out", async () => {
    const root = tempDir();
    const { home, kit } = layout(root);
    mkdirSync(join(kit, "docs"));
    writeFileSync(join(root, "agent", "AGENTS.md"), "MY-RULES\n@~/src/prompt-kit/base.md\n");
    for (const cwd of [kit, join(kit, "docs")]) {
      for (const projectTrusted of [true, false]) {
        const result = await renderSystemPrompt(pinned(root, { cwd, home, projectTrusted }));
        expect(result.text).toContain("MY-RULES");
        expect(result.text).not.toContain(KEY);
        expect(result.diagnostics.map((d) => d.code)).toContain("import-outside");
      }
    }
    // A monorepo's shared prompt, a plain file importing the monorepo's .env and your AWS keys.
    const mono = join(home, "work", "mono");
    gitRepository(mono);
    mkdirSync(join(mono, "prompts"), { recursive: true });
    mkdirSync(join(mono, "packages", "a"), { recursive: true });
    writeFileSync(join(mono, ".gitignore"), ".env\n");
    writeFileSync(join(mono, ".env"), `${ENV}\n`);
    mkdirSync(join(home, ".aws"));
    writeFileSync(join(home, ".aws", "credentials"), "SECRET-MARKER-AWS\n");
    writeFileSync(
      join(mono, "prompts", "agent.md"),
      "MONO-PROMPT-MARKER\n@../.env\n@~/.aws/credentials\n",
    );
    writeFileSync(join(root, "agent", "AGENTS.md"), "MY-RULES\n@~/work/mono/prompts/agent.md\n");
    const cwd = join(mono, "packages", "a");
    const result = await renderSystemPrompt(pinned(root, { cwd, home, projectTrusted: false }));
    expect(result.text).toContain("MONO-PROMPT-MARKER");
    expect(result.text).not.toContain("SECRET-MARKER-AWS");
    expect(result.text).not.toContain(ENV);
  });

  it("-o and export --out through your link to the kit and its `out` link are refused; your ~/.config untouched", async () => {
    const root = tempDir();
    const { home, proj, kit } = layout(root);
    for (const [argv, flag] of [
      [["render", "-o", "~/.config/sysprompt/kit/out/opencode/AGENTS.md"], "--output"],
      [
        [
          "export",
          "--agent",
          "codex",
          "--out",
          join(home, ".config", "sysprompt", "kit", "out", "opencode", "AGENTS.md"),
        ],
        "export",
      ],
    ] as const) {
      const out = await cli(
        root,
        proj,
        [...argv].map((a) => a.replace("~", home)),
      );
      // export says what the file is before it renders: a dot-name below your home folder
      // (review rev51a F2); render finds the kit's link first.
      expect([out.code, out.stderr], argv.join(" ")).toEqual([
        2,
        flag === "export"
          ? expect.stringContaining("a file in the folder .config in your home folder")
          : `sysprompt: ${flag}: ${join(kit, "out")}: a symbolic link, not a folder: nothing is written through it\n`,
      ]);
    }
    expect(readFileSync(join(home, ".config", "opencode", "AGENTS.md"), "utf8")).toBe(
      "MY-GLOBAL-RULES\n",
    );
  });

  for (const kind of ["clone", "submodule"] as const) {
    it(`F2: a kit ${kind === "clone" ? "cloned" : "added as a submodule"} inside your trusted project reads neither its .git/config nor its .env`, async () => {
      const root = tempDir();
      const { home, proj } = layout(root);
      writeFileSync(
        join(proj, ".git", "config"),
        `[remote "origin"]\n\turl = https://u:${TOKEN}@example.com/p.git\n`,
      );
      writeFileSync(join(proj, ".env"), `${ENV}\n`);
      const kit = join(proj, "tools", "prompt-kit");
      if (kind === "clone") gitRepository(kit);
      else {
        mkdirSync(join(proj, ".git", "modules", "tools", "prompt-kit"), { recursive: true });
        mkdirSync(kit, { recursive: true });
        writeFileSync(join(kit, ".git"), "gitdir: ../../.git/modules/tools/prompt-kit\n");
        execFileSync("git", [
          "init",
          "-q",
          "--bare",
          join(proj, ".git", "modules", "tools", "prompt-kit"),
        ]);
        execFileSync("git", [
          "config",
          "--file",
          join(proj, ".git", "modules", "tools", "prompt-kit", "config"),
          "core.worktree",
          "../../../../tools/prompt-kit",
        ]);
      }
      mkdirSync(join(kit, "prompts"));
      symlinkSync("../../.git/config", join(kit, "base.md"));
      symlinkSync("../../.env", join(kit, "env.md"));
      symlinkSync("../../../.git/config", join(kit, "prompts", "cfg.md"));
      writeFileSync(join(kit, "prompts", "plain.md"), "KIT-TEMPLATE-MARKER\n");
      for (const appendSystemPrompt of [
        "tools/prompt-kit/base.md",
        "tools/prompt-kit/env.md",
        join(kit, "base.md"),
      ]) {
        const text = await rendered(pinned(root, { cwd: proj, appendSystemPrompt }));
        expect(text, appendSystemPrompt).not.toContain("SECRET-MARKER");
        expect(text, appendSystemPrompt).toMatch(
          new RegExp(`^refused: .*outside the project root ${kit}`),
        );
      }
      const loaded = await loadPromptTemplates({
        cwd: proj,
        home,
        agentDir: join(root, "agent"),
        env: {},
        includeDefaults: false,
        paths: ["tools/prompt-kit/prompts"],
      });
      expect(JSON.stringify(loaded.templates)).not.toContain(TOKEN);
      expect(JSON.stringify(loaded.templates)).toContain("KIT-TEMPLATE-MARKER");
      // The project's own link to its .env is the project's, trusted: as before.
      symlinkSync(".env", join(proj, "env-link.md"));
      const own = await rendered(pinned(root, { cwd: proj, appendSystemPrompt: "env-link.md" }));
      expect(own).toContain(ENV);
    });
  }

  it("normal layouts: your link to a kit of plain files, a stow link into your dotfiles, a dotfiles home", async () => {
    const root = tempDir();
    const { home, proj } = layout(root);
    const own = join(home, "my-kit");
    gitRepository(own);
    mkdirSync(join(own, "prompts"));
    writeFileSync(join(own, "prompts", "base.md"), "MY-KIT-MARKER\n");
    symlinkSync("base.md", join(own, "prompts", "alias.md")); // a link within the kit
    linkKit(home, "mine", join(own, "prompts"));
    // Stow: ~/.config/notes -> ~/dotfiles/notes/.config/notes, plain files.
    const dot = join(home, "dotfiles");
    gitRepository(dot);
    mkdirSync(join(dot, "notes", ".config", "notes"), { recursive: true });
    writeFileSync(join(dot, "notes", ".config", "notes", "x.md"), "STOW-MARKER\n");
    symlinkSync("../dotfiles/notes/.config/notes", join(home, ".config", "notes"));
    const read = async (appendSystemPrompt: string) =>
      rendered(pinned(root, { cwd: proj, appendSystemPrompt }));
    expect(await read("~/.config/sysprompt/mine/base.md")).toContain("MY-KIT-MARKER");
    expect(await read("~/.config/sysprompt/mine/alias.md")).toContain("MY-KIT-MARKER");
    expect(await read("~/.config/notes/x.md")).toContain("STOW-MARKER");
    // Written into a folder of yours with no dot-name; a dot-name below your home folder is
    // programs' configuration and refused, through your stow link too (review rev51a F2).
    const write = await cli(root, proj, ["render", "-o", join(home, "notes-out.md")]);
    expect(write.code).toBe(0);
    const dotted = await cli(root, proj, ["render", "-o", join(home, ".config", "notes", "p.md")]);
    expect([dotted.code, dotted.stderr]).toEqual([
      2,
      expect.stringContaining("a file in the folder .config in your home folder"),
    ]);
    // A dotfiles home: your links in it are yours, the kit's are still the kit's.
    gitRepository(home);
    mkdirSync(join(home, "notes"));
    writeFileSync(join(home, "notes", "n.md"), "NOTES-MARKER\n");
    symlinkSync("notes/n.md", join(home, "linked.md"));
    expect(await read("~/linked.md")).toContain("NOTES-MARKER");
    expect(await read("~/.config/sysprompt/kit/base.md")).toMatch(/^refused: /);
  });
});
