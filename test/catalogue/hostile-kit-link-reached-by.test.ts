import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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

// Review rev45a. F1 (high): the stow-mirror rule ("your AGENTS.md's repository is yours when it
// mirrors your home") was decided on the file's FINAL real path, which a kit's own links choose:
// a kit committing `.pi/agent/AGENTS.md` with its top `AGENTS.md` a link to it, linked by you as
// `~/.pi/agent/AGENTS.md -> ~/src/prompt-kit/AGENTS.md`, passed as your dotfiles, and its
// `@~/.ssh/id_rsa` was read (`--untrusted` too). Now it is decided on where YOUR link leads.
// F5/F6 (high): a path that ends in another repository (a kit through your link, a repository
// beside the working one, a kit cloned in your project) was handed to that repository's door and
// writer spelled by its REAL path, so the repository's own link `cfg.md -> .git/config` looked
// like `.git/config` named at its own name: read under `--untrusted`, and `-o` wrote through it.
// Now it keeps the name it was reached by. F7 (high): a kit's link "led within" the kit when it
// led into a clone nested in it (your fork in its `plugins/mine`): your clone's token was read
// and overwritten. Now a repository's link leads within it only into its own files.

const ENV = "SECRET-MARKER-ENV";
const MINE = "SECRET-MARKER-MYTOKEN";

/** Your home (a key), your project ~/work/app, and a kit ~/src/p with committed links into its own private files. */
function layout(root: string) {
  const home = homeWithKey(root);
  const app = join(home, "work", "app");
  const kit = join(home, "src", "p");
  gitRepository(app, { token: "APP" });
  gitRepository(kit, { token: TOKEN });
  mkdirSync(join(kit, "prompts"));
  writeFileSync(join(kit, ".gitignore"), ".env\n");
  writeFileSync(join(kit, ".env"), `${ENV}\n`);
  writeFileSync(join(kit, "plain.md"), "KIT-PLAIN-MARKER\n");
  symlinkSync(".git/config", join(kit, "cfg.md"));
  symlinkSync(".git/config", join(kit, "out.md"));
  symlinkSync(".git", join(kit, "gitdir"));
  symlinkSync("../.env", join(kit, "prompts", "base.md"));
  linkKit(home, "kit", kit);
  mkdirSync(join(root, "agent"));
  return { home, app, kit };
}

describe("hostile-kit-link-reached-by: a kit's links decide nothing; a path keeps the name it was reached by", () => {
  it("F1: your AGENTS.md your link to a kit AGENTS.md that links to its own .pi/agent/AGENTS.md: not your dotfiles", async () => {
    const root = tempDir();
    const { home, app, kit } = layout(root);
    mkdirSync(join(kit, ".pi", "agent"), { recursive: true });
    writeFileSync(join(kit, ".pi", "agent", "AGENTS.md"), "KIT-AGENTS-MARKER\n@~/.ssh/id_rsa\n");
    symlinkSync(".pi/agent/AGENTS.md", join(kit, "AGENTS.md"));
    const agent = join(home, ".pi", "agent");
    mkdirSync(agent, { recursive: true });
    symlinkSync(join(kit, "AGENTS.md"), join(agent, "AGENTS.md"));
    for (const projectTrusted of [true, false]) {
      const r = await renderSystemPrompt(
        pinned(root, { cwd: app, home, agentDir: agent, projectTrusted }),
      );
      expect(r.text, `trusted ${projectTrusted}`).not.toContain(KEY);
    }
    // Your stow layouts still mirror: a file link, and a folded folder link (`~/.pi -> dotfiles/pi/.pi`).
    const dot = join(home, "dotfiles", "pi", ".pi", "agent");
    gitRepository(join(home, "dotfiles"), { token: "DOT" });
    mkdirSync(dot, { recursive: true });
    writeFileSync(join(dot, "AGENTS.md"), "STOW-MARKER\n@~/notes.md\n");
    for (const fold of [false, true]) {
      const own = join(root, `own-${fold}`);
      const pi = join(own, ".pi");
      mkdirSync(fold ? own : join(pi, "agent"), { recursive: true });
      writeFileSync(join(own, "notes.md"), "NOTES-MARKER\n");
      if (fold) symlinkSync(join(home, "dotfiles", "pi", ".pi"), pi);
      else symlinkSync(join(dot, "AGENTS.md"), join(pi, "agent", "AGENTS.md"));
      const r = await renderSystemPrompt(
        pinned(root, { cwd: app, home: own, agentDir: join(pi, "agent") }),
      );
      // Your dotfiles' file imports your notes, out of the dotfiles repository: yours.
      expect(r.text, `fold ${fold}`).toContain("STOW-MARKER");
      expect(r.text, `fold ${fold}`).toContain("NOTES-MARKER");
    }
  });

  it("F5: --untrusted, a kit's link to its .git/config or .env through your link, beside you, or in your project is refused", async () => {
    const root = tempDir();
    const { home, app, kit } = layout(root);
    const q = join(home, "src", "q");
    gitRepository(q, { token: "Q" });
    const tools = join(app, "tools");
    mkdirSync(tools);
    symlinkSync(kit, join(tools, "kit-link"));
    const cases: [string, string][] = [
      [app, "~/.config/sysprompt/kit/cfg.md"],
      [app, "~/.config/sysprompt/kit/prompts/base.md"],
      [q, "~/src/p/cfg.md"],
      [q, "../p/prompts/base.md"],
    ];
    for (const [cwd, path] of cases) {
      const text = await rendered(
        pinned(root, { cwd, home, projectTrusted: false, appendSystemPrompt: path }),
      );
      expect(text, path).not.toContain(TOKEN);
      expect(text, path).not.toContain(ENV);
      expect(text, path).toMatch(/^refused: /);
    }
    // The kit's plain file through your link stays yours to name.
    const plain = await rendered(
      pinned(root, {
        cwd: app,
        home,
        projectTrusted: false,
        appendSystemPrompt: "~/.config/sysprompt/kit/plain.md",
      }),
    );
    expect(plain).toContain("KIT-PLAIN-MARKER");
  });

  it("F5: --untrusted, a Mercurial kit in your dotfiles home or a team's checkout, through your link: its link to its .hg/hgrc is refused", async () => {
    const root = tempDir();
    const { home, app } = layout(root);
    gitRepository(home, { token: "DOT" });
    const hg = join(home, "src", "hgkit");
    workingCopy("hg", hg, TOKEN);
    writeFileSync(join(hg, "plain.md"), "HG-PLAIN-MARKER\n");
    symlinkSync(".hg/hgrc", join(hg, "base.md"));
    linkKit(home, "hgkit", hg);
    const read = (appendSystemPrompt: string) =>
      rendered(pinned(root, { cwd: app, home, projectTrusted: false, appendSystemPrompt }));
    expect(await read("~/.config/sysprompt/hgkit/base.md")).toMatch(/^refused: /);
    expect(await read("~/.config/sysprompt/hgkit/plain.md")).toContain("HG-PLAIN-MARKER");
    // The same kit inside a team's git checkout (not your home), reached through your link.
    const team = join(home, "src", "team");
    gitRepository(team, { token: "TEAM" });
    const inTeam = join(team, "hgkit");
    workingCopy("hg", inTeam, TOKEN);
    writeFileSync(join(inTeam, "plain.md"), "TEAM-HG-PLAIN-MARKER\n");
    symlinkSync(".hg/hgrc", join(inTeam, "base.md"));
    linkKit(home, "teamkit", inTeam);
    expect(await read("~/.config/sysprompt/teamkit/base.md")).not.toContain(TOKEN);
    expect(await read("~/.config/sysprompt/teamkit/plain.md")).toContain("TEAM-HG-PLAIN-MARKER");
  });

  it("F5: --untrusted, a kit cloned in your project: its link to its own .env is refused", async () => {
    const root = tempDir();
    const { home, app } = layout(root);
    const nested = join(app, "tools", "prompt-kit");
    gitRepository(nested, { token: TOKEN });
    writeFileSync(join(nested, ".env"), `${ENV}\n`);
    symlinkSync(".env", join(nested, "env.md"));
    symlinkSync(".git/config", join(nested, "cfg.md"));
    for (const path of ["tools/prompt-kit/env.md", "tools/prompt-kit/cfg.md"]) {
      const text = await rendered(
        pinned(root, { cwd: app, home, projectTrusted: false, appendSystemPrompt: path }),
      );
      expect(text, path).not.toContain(ENV);
      expect(text, path).not.toContain(TOKEN);
    }
    const w = await cli(root, app, ["render", "-o", "tools/prompt-kit/cfg.md"], { home });
    expect(w.code).not.toBe(0);
    expect(w.stderr).toContain("a symbolic link");
    expect(readFileSync(join(nested, ".git", "config"), "utf8")).toContain(TOKEN);
  });

  it("F6: -o and export --out into another repository through its links into its .git are refused", async () => {
    const root = tempDir();
    const { home, app, kit } = layout(root);
    const q = join(home, "src", "q");
    gitRepository(q, { token: "Q" });
    const cases: [string, string[]][] = [
      [q, ["render", "-o", join(kit, "out.md")]],
      [q, ["render", "-o", "../p/out.md"]],
      [app, ["render", "-o", join(home, ".config", "sysprompt", "kit", "out.md")]],
      [app, ["render", "-o", join(home, ".config", "sysprompt", "kit", "gitdir", "config")]],
      [q, ["export", "--agent", "codex", "--out", join(kit, "out.md")]],
    ];
    for (const [cwd, argv] of cases) {
      const r = await cli(root, cwd, argv, { home });
      expect(r.code, argv.join(" ")).not.toBe(0);
      // export says what the file is first: the kit is where your ~/.config/sysprompt/kit leads,
      // a dot path of your home folder (its links two levels down are read: rev69b F2).
      expect(r.stderr, argv.join(" ")).toMatch(/a symbolic link|kit is a link to it/);
      expect(readFileSync(join(kit, ".git", "config"), "utf8"), argv.join(" ")).toContain(TOKEN);
    }
    // A plain file of another repository is written (the kit's are your ~/.config/sysprompt/kit's).
    const other = join(home, "src", "r");
    gitRepository(other, { token: "R" });
    const ok = await cli(root, q, ["render", "-o", join(other, "written.md")], { home });
    expect(ok.stderr).toContain("wrote");
    expect(ok.code).toBe(0);
  });

  it("F7: a kit's link into your clone nested in it is a link out of the kit: not read, not written, not imported", async () => {
    const root = tempDir();
    const { home, app, kit } = layout(root);
    const mine = join(kit, "plugins", "mine");
    mkdirSync(mine, { recursive: true });
    gitRepository(mine, { token: MINE });
    symlinkSync("plugins/mine/.git/config", join(kit, "base.md"));
    symlinkSync("plugins/mine/.git/config", join(kit, "mine-out.md"));
    for (const projectTrusted of [true, false]) {
      const text = await rendered(
        pinned(root, {
          cwd: app,
          home,
          projectTrusted,
          appendSystemPrompt: "~/.config/sysprompt/kit/base.md",
        }),
      );
      expect(text).not.toContain(MINE);
      expect(text).toMatch(/^refused: /);
    }
    const w = await cli(root, app, [
      "render",
      "-o",
      join(home, ".config", "sysprompt", "kit", "mine-out.md"),
    ]);
    expect(w.code).not.toBe(0);
    expect(w.stderr).toContain("a symbolic link");
    expect(readFileSync(join(mine, ".git", "config"), "utf8")).toContain(MINE);
    // Your AGENTS.md importing it (through your link or directly), or your link to the kit's AGENTS.md.
    const agent = join(root, "agent");
    for (const imp of ["~/.config/sysprompt/kit/base.md", "~/src/p/base.md"]) {
      writeFileSync(join(agent, "AGENTS.md"), `USER-MARKER\n@${imp}\n`);
      const r = await renderSystemPrompt(pinned(root, { cwd: app, home, agentDir: agent }));
      expect(r.text, imp).toContain("USER-MARKER");
      expect(r.text, imp).not.toContain(MINE);
    }
    // The kit's own submodule is its part: its link to a file there is read through your link.
    const sub = join(kit, "vendor", "common");
    mkdirSync(sub, { recursive: true });
    mkdirSync(join(kit, ".git", "modules", "common"), { recursive: true });
    writeFileSync(join(kit, ".git", "modules", "common", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(sub, ".git"), "gitdir: ../../.git/modules/common\n");
    writeFileSync(join(sub, "rules.md"), "KIT-SUBMODULE-MARKER\n");
    symlinkSync("vendor/common/rules.md", join(kit, "shared.md"));
    const shared = await rendered(
      pinned(root, { cwd: app, home, appendSystemPrompt: "~/.config/sysprompt/kit/shared.md" }),
    );
    expect(shared).toContain("KIT-SUBMODULE-MARKER");
    // Its link to its submodule's .env stays its link, --untrusted: not the submodule's .env named.
    writeFileSync(join(sub, ".env"), `${ENV}\n`);
    symlinkSync("vendor/common/.env", join(kit, "subenv.md"));
    const subenv = await rendered(
      pinned(root, {
        cwd: app,
        home,
        projectTrusted: false,
        appendSystemPrompt: "~/.config/sysprompt/kit/subenv.md",
      }),
    );
    expect(subenv).not.toContain(ENV);
    expect(subenv).toMatch(/^refused: /);
    symlinkSync("plugins/mine/.git/config", join(kit, "AGENTS.md"));
    const agent2 = join(root, "agent2");
    mkdirSync(agent2);
    symlinkSync(join(home, ".config", "sysprompt", "kit", "AGENTS.md"), join(agent2, "AGENTS.md"));
    for (const projectTrusted of [true, false]) {
      const r = await renderSystemPrompt(
        pinned(root, { cwd: app, home, agentDir: agent2, projectTrusted }),
      );
      expect(r.text).not.toContain(MINE);
    }
  });

  it("F7: the working workspace's link into your clone nested in it is not your import's to follow", async () => {
    const root = tempDir();
    const { home } = layout(root);
    const w = join(home, "work", "W");
    const mine = join(w, "plugins", "mine");
    mkdirSync(join(w, "prompts"), { recursive: true });
    gitRepository(w, { token: "W" });
    mkdirSync(mine, { recursive: true });
    gitRepository(mine, { token: MINE });
    symlinkSync("../plugins/mine/.git/config", join(w, "prompts", "team.md"));
    writeFileSync(join(w, "prompts", "plain.md"), "W-PLAIN-MARKER\n");
    const agent = join(root, "agent");
    writeFileSync(
      join(agent, "AGENTS.md"),
      "USER-MARKER\n@~/work/W/prompts/team.md\n@~/work/W/prompts/plain.md\n",
    );
    const r = await renderSystemPrompt(pinned(root, { cwd: w, home, agentDir: agent }));
    expect(r.text).toContain("W-PLAIN-MARKER");
    expect(r.text).not.toContain(MINE);
  });
});
