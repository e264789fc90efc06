import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates } from "../../src/prompt-templates/load.js";
import { loadSkills } from "../../src/skills/load.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { gitRepository, homeWithKey, KEY, rendered } from "./_nested.js";
import { cli } from "./_output-link.js";

// A shared prompt repository you cloned at ~/prompt-kit (its README: "sysprompt render
// --append-system-prompt ~/prompt-kit/base.md") commits `base.md -> ../.ssh/id_rsa`. Named
// from your project ~/work/app, the path leaves it at your home folder, a folder of your own,
// so it was read as your own file, its links followed: your key went into the prompt,
// `--untrusted` too, by `~`, by the absolute path and by `../../prompt-kit/base.md`; the same
// clone at ~/work/kit2 (sharing ~/work with the project) was refused. A template kit named by
// loadPromptTemplates' `paths` (`~/tpl-kit/prompts`) loaded the key as /review's body. The
// write twin: with the kit's `out -> ../.config`, `render -o
// ~/prompt-kit/out/opencode/AGENTS.md` replaced your ~/.config/opencode/AGENTS.md. A named
// path that enters another repository on its way down from your own folders is now that
// repository's file: read through the door rooted at it, written with no link from its root
// down. Review rev42c F1 (high), and its write twin (medium).

/** Your home under `root` with a key, your project ~/work/app, and the hostile kit ~/prompt-kit. */
function layout(root: string): { home: string; app: string; kit: string } {
  const home = homeWithKey(root);
  const app = join(home, "work", "app");
  const kit = join(home, "prompt-kit");
  gitRepository(app);
  gitRepository(kit);
  mkdirSync(join(kit, "docs"));
  symlinkSync("../.ssh/id_rsa", join(kit, "base.md"));
  symlinkSync("../../.ssh/id_rsa", join(kit, "docs", "style.md"));
  writeFileSync(join(kit, "plain.md"), "KIT-PLAIN-MARKER\n");
  mkdirSync(join(root, "agent"), { recursive: true });
  return { home, app, kit };
}

describe("hostile-named-path-other-repo: a file named in another repository follows none of its links out", () => {
  for (const projectTrusted of [true, false]) {
    it(`~/prompt-kit/base.md, linked to your key, is refused however it is spelled (${projectTrusted ? "trusted" : "untrusted"})`, async () => {
      const root = tempDir();
      const { app, kit } = layout(root);
      for (const named of [
        { appendSystemPrompt: "~/prompt-kit/base.md" },
        { appendSystemPrompt: join(kit, "base.md") },
        { appendSystemPrompt: "../../prompt-kit/base.md" },
        { appendSystemPrompt: "~/prompt-kit/docs/style.md" },
        { systemPrompt: "~/prompt-kit/base.md" },
      ]) {
        const text = await rendered(pinned(root, { cwd: app, projectTrusted, ...named }));
        expect(text, JSON.stringify(named)).not.toContain(KEY);
        expect(text, JSON.stringify(named)).toMatch(
          new RegExp(`^refused: .*outside the project root ${kit}`),
        );
      }
      // From your home folder, and from a plain folder in it (an unpacked tarball), alike.
      mkdirSync(join(root, "home", "dl", "t"), { recursive: true });
      for (const cwd of [join(root, "home"), join(root, "home", "dl", "t")]) {
        const text = await rendered(
          pinned(root, { cwd, projectTrusted, appendSystemPrompt: "~/prompt-kit/base.md" }),
        );
        expect(text, cwd).not.toContain(KEY);
        expect(text, cwd).toMatch(/^refused: /);
      }
      // From `~`, relative: the home folder's door took the kit's link to a plain file of yours
      // (`tax.md -> ../Documents/tax.md`) as the home's; it is the kit's, with a dotfiles home too.
      mkdirSync(join(root, "home", "Documents"));
      writeFileSync(join(root, "home", "Documents", "tax.md"), "SECRET-MARKER-TAX\n");
      symlinkSync("../Documents/tax.md", join(kit, "tax.md"));
      for (const dotfiles of [false, true]) {
        if (dotfiles) gitRepository(join(root, "home"));
        const text = await rendered(
          pinned(root, {
            cwd: join(root, "home"),
            projectTrusted,
            appendSystemPrompt: "prompt-kit/tax.md",
          }),
        );
        expect(text, `dotfiles ${dotfiles}`).not.toContain("SECRET-MARKER");
        expect(text).toMatch(new RegExp(`^refused: .*outside the project root ${kit}`));
      }
      // A plain file of the kit is yours to name.
      const plain = await rendered(
        pinned(root, { cwd: app, projectTrusted, appendSystemPrompt: "~/prompt-kit/plain.md" }),
      );
      expect(plain).toContain("KIT-PLAIN-MARKER");
    });
  }

  it("a template kit named by loadPromptTemplates' paths: its template linked to your key is not loaded", async () => {
    const root = tempDir();
    const { home, app } = layout(root);
    const tpl = join(home, "tpl-kit");
    gitRepository(tpl);
    mkdirSync(join(tpl, "prompts"));
    symlinkSync("../../.ssh/id_rsa", join(tpl, "prompts", "review.md"));
    writeFileSync(join(tpl, "prompts", "plain.md"), "PLAIN-TEMPLATE\n");
    for (const named of ["~/tpl-kit/prompts", join(tpl, "prompts")]) {
      const loaded = await loadPromptTemplates({
        cwd: app,
        home,
        agentDir: join(root, "agent"),
        env: {},
        includeDefaults: false,
        paths: [named],
      });
      const bodies = loaded.templates.map((t) => t.content).join("\n");
      expect(bodies, named).not.toContain(KEY);
      expect(bodies, named).toContain("PLAIN-TEMPLATE");
      expect(loaded.diagnostics.map((d) => d.code)).toContain("file-outside-project");
    }
  });

  it("a skill kit named by skillPaths: its skill linked out of it is not read", async () => {
    const root = tempDir();
    const { home, app } = layout(root);
    const kit = join(home, "skill-kit");
    gitRepository(kit);
    mkdirSync(join(home, "elsewhere"));
    writeFileSync(
      join(home, "elsewhere", "SKILL.md"),
      "---\nname: other\ndescription: OTHER-SKILL-MARKER\n---\nbody\n",
    );
    mkdirSync(join(kit, "skills", "other"), { recursive: true });
    symlinkSync("../../../elsewhere/SKILL.md", join(kit, "skills", "other", "SKILL.md"));
    const loaded = await loadSkills({
      cwd: app,
      home,
      agentDir: join(root, "agent"),
      includeDefaults: false,
      paths: ["~/skill-kit/skills"],
    });
    expect(JSON.stringify(loaded.skills)).not.toContain("OTHER-SKILL-MARKER");
    expect(loaded.diagnostics.map((d) => d.code)).toContain("file-outside-project");
  });

  it("render -o and export --out through the kit's link out of it are refused; your ~/.config untouched", async () => {
    const root = tempDir();
    const { home, app, kit } = layout(root);
    const config = join(home, ".config", "opencode");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "AGENTS.md"), "MY-GLOBAL-RULES\n");
    symlinkSync("../.config", join(kit, "out"));
    for (const [argv, flag] of [
      [["render", "-o", join(kit, "out", "opencode", "AGENTS.md")], "--output"],
      [["render", "-o", "../../prompt-kit/out/opencode/AGENTS.md"], "--output"],
      [
        ["export", "--agent", "codex", "--out", join(kit, "out", "opencode", "AGENTS.md")],
        "export",
      ],
    ] as const) {
      const out = await cli(root, app, [...argv]);
      expect([out.code, out.stderr], argv.join(" ")).toEqual([
        2,
        `sysprompt: ${flag}: ${join(kit, "out")}: a symbolic link, not a folder: nothing is written through it\n`,
      ]);
    }
    expect(readFileSync(join(config, "AGENTS.md"), "utf8")).toBe("MY-GLOBAL-RULES\n");
    // A real folder of the kit is written as named (a prompt.md: an AGENTS.md out of the project
    // is refused by its name since review rev96d F2, agents load it in the folders below).
    mkdirSync(join(kit, "build"));
    const ok = await cli(root, app, ["render", "-o", join(kit, "build", "prompt.md")]);
    expect(ok.code).toBe(0);
    expect(existsSync(join(kit, "build", "prompt.md"))).toBe(true);
  });

  it("normal layouts keep your links: ~/notes, your link to a kit elsewhere, a dotfiles home", async () => {
    const root = tempDir();
    const { home, app } = layout(root);
    // ~/notes your link to a plain folder; ~/kits/team your link to a clone kept out of your home.
    mkdirSync(join(root, "data", "notes"), { recursive: true });
    writeFileSync(join(root, "data", "notes", "x.md"), "NOTES-MARKER\n");
    symlinkSync(join(root, "data", "notes"), join(home, "notes"));
    const team = join(root, "data", "team-kit");
    gitRepository(team);
    writeFileSync(join(team, "base.md"), "TEAM-MARKER\n");
    symlinkSync(join(root, "data", "notes", "x.md"), join(team, "notes.md"));
    symlinkSync(team, join(home, "team"));
    const read = async (appendSystemPrompt: string, cwd = app) =>
      rendered(pinned(root, { cwd, appendSystemPrompt }));
    expect(await read("~/notes/x.md")).toContain("NOTES-MARKER");
    expect(await read("~/team/base.md")).toContain("TEAM-MARKER");
    // The team kit's own link out of it is the kit's: refused (name the real file).
    expect(await read("~/team/notes.md")).toMatch(/^refused: .*outside the project root/);
    // A dotfiles home: the home's own repository is not another repository; its links are yours.
    gitRepository(home);
    symlinkSync(join(root, "data", "notes", "x.md"), join(home, "linked-notes.md"));
    mkdirSync(join(home, "bin"));
    symlinkSync("../notes/x.md", join(home, "bin", "notes.md"));
    expect(await read("~/linked-notes.md")).toContain("NOTES-MARKER");
    expect(await read("~/bin/notes.md")).toContain("NOTES-MARKER");
    expect(await read("~/notes/x.md")).toContain("NOTES-MARKER");
  });
});
