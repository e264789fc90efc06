import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { recordReads } from "../../src/_io.js";
import { hookNode } from "../../src/cli/commands/export.js";
import {
  agentDirInProject,
  findSystemBinary,
  projectFolders,
  projectHome,
  projectOwns,
  projectRoots,
} from "../../src/gather/environment/system-binary.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";
import { plant } from "./_planted.js";

// Which folders around the home folder are the project's, when the home folder
// and a hostile checkout or tarball overlap (issue 24; attack reviews rev36a and
// rev36b, against 06415de):
// - F1: HOME the checkout's root, the working folder in a submodule
//   (`p/lib/sub/.git` a file into `p/.git/modules/…`): the nearest repository
//   was the submodule, so the home folder was yours there. Its agent dir was
//   read as your user layer (a link to a key put it in the prompt), the
//   project's mimeapps.list chose serve --open's opener, git got HOME=p and
//   read the project's .gitconfig as your global config.
// - F2: HOME the checkout's root, `~/bin` or `~/.local/bin` on PATH, from
//   `p/src`: the project's `bin/lspci` ran on a plain render, its `bin/git`
//   with --git, and `export --hooks` named its `bin/node`.
// - F6: HOME inside the checkout, the working folder inside HOME
//   (`p/.home/work`): the walk up for a `.git` stopped at HOME, so the
//   checkout holding it was not found: agent dir read, `.home/.local/bin/lspci` run.
// - F3: no `.git` at all (a tarball, a package build's `HOME=$PWD/.home`),
//   from `p/src`: the agent dir in `p/.home` read, its `.local/bin` used for
//   the probes and the hook's node.

/** A project folder with a `.git` folder (the checks look at its kind, not its contents). */
function repository(dir: string): string {
  mkdirSync(join(dir, ".git"), { recursive: true });
  return dir;
}

/**
 * `dir` as a submodule or worktree of the repository whose git folder holds
 * `gitDir`, which names it back as git writes it (a worktree's `gitdir`
 * file, a submodule's `core.worktree`).
 */
function linked(dir: string, gitDir: string): string {
  mkdirSync(gitDir, { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, ".git"), `gitdir: ${gitDir}\n`);
  if (basename(dirname(gitDir)) === "worktrees") {
    writeFileSync(join(gitDir, "gitdir"), `${join(dir, ".git")}\n`);
  } else {
    writeFileSync(join(gitDir, "config"), `[core]\n\tworktree = ${dir}\n`);
  }
  return dir;
}

/** `<agent>/AGENTS.md`, a link to a secret outside the project. */
function agentLink(agent: string, base: string): void {
  mkdirSync(agent, { recursive: true });
  mkdirSync(join(base, "secret"), { recursive: true });
  writeFileSync(join(base, "secret", "id_rsa"), "SECRET-MARKER-KEY\n");
  symlinkSync(join(base, "secret", "id_rsa"), join(agent, "AGENTS.md"));
}

async function untrusted(cwd: string, home: string) {
  const result = await renderSystemPrompt({ cwd, home, env: {}, projectTrusted: false });
  return {
    leaked: result.text.includes("SECRET-MARKER-KEY"),
    codes: result.diagnostics.map((d) => d.code).filter((c) => c.startsWith("agent-dir")),
  };
}

/** Whether the system lspci is all `PATH` (the planted folder, then none) gives. */
async function plantedFound(cwd: string, bin: string, home: string): Promise<boolean> {
  plant(bin, "lspci", join(dirname(bin), "ran"));
  const exclude = await projectFolders([cwd], [bin], home);
  return (await findSystemBinary("lspci", { PATH: bin }, { exclude, home })) !== undefined;
}

describe("hostile-home-around-project F1: HOME the checkout's root, the working folder in a submodule", () => {
  it("its agent dir is the project's, from the submodule and from a worktree made inside it", async () => {
    const base = tempDir();
    const p = repository(join(base, "p"));
    writeFileSync(join(p, "AGENTS.md"), "# ctx\n");
    agentLink(join(p, ".pi", "agent"), base);
    // Modern git writes the submodule's path relative; a worktree's is absolute.
    const sub = join(p, "lib", "sub");
    mkdirSync(join(p, ".git", "modules", "lib", "sub"), { recursive: true });
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, ".git"), "gitdir: ../../.git/modules/lib/sub\n");
    const wt = linked(join(p, "wt"), join(p, ".git", "worktrees", "wt"));
    for (const cwd of [sub, wt]) {
      expect(await untrusted(cwd, p)).toEqual({ leaked: false, codes: ["agent-dir-in-project"] });
    }
  });

  it("a submodule of a submodule: the same", async () => {
    const base = tempDir();
    const p = repository(join(base, "p"));
    const a = linked(join(p, "a"), join(p, ".git", "modules", "a"));
    const b = linked(join(a, "b"), join(p, ".git", "modules", "a", "modules", "b"));
    expect(await agentDirInProject(join(p, ".pi", "agent"), b, p)).toBe(true);
  });

  it("its bin/ on PATH gives no lspci, and git's global config and the opener's settings are the project's", async () => {
    const base = tempDir();
    const p = repository(join(base, "p"));
    const gitDir = join(p, ".git", "modules", "lib", "sub");
    const sub = linked(join(p, "lib", "sub"), gitDir);
    expect(await plantedFound(sub, join(p, "bin"), p)).toBe(false);
    // git's folders (work tree, git dir) and the opener's (the working folder) judge HOME's files.
    const owns = projectOwns(await projectRoots([sub, gitDir], [join(p, ".gitconfig")], p));
    expect(await owns(join(p, ".gitconfig"))).toBe(true);
    const opener = projectOwns(await projectRoots([sub], [p], p));
    expect(await opener(p)).toBe(true);
  });

  it("a worktree of the checkout made outside it: the same", async () => {
    const base = tempDir();
    const p = repository(join(base, "p"));
    const wt = linked(join(base, "wt"), join(p, ".git", "worktrees", "wt"));
    expect(await agentDirInProject(join(p, ".pi", "agent"), wt, p)).toBe(true);
    expect(await plantedFound(wt, join(p, ".local", "bin"), p)).toBe(false);
  });

  it("a clone of its own, or a worktree of a repository elsewhere, leaves the home folder yours", async () => {
    const base = tempDir();
    const p = repository(join(base, "p"));
    const clone = repository(join(p, "src", "clone"));
    const other = repository(join(base, "other"));
    const wt = linked(join(p, "wt"), join(other, ".git", "worktrees", "wt"));
    for (const cwd of [clone, wt]) {
      expect(await agentDirInProject(join(p, ".pi", "agent"), cwd, p)).toBe(false);
      expect(await plantedFound(cwd, join(p, "bin"), p)).toBe(true);
    }
  });
});

// Review rev41a (F1, low): a dotfiles home (`~/.git`) and a hostile tree W
// outside it whose own `.git` is a file `gitdir: ~/.git/modules/w` (it need
// not exist) or a link to `~/.git/hooks`: W was taken for a worktree of your
// home's repository made elsewhere, so the home folder was the project's and
// under --untrusted your agent dir was not read (your AGENTS.md, skills and
// APPEND_SYSTEM.md lost, a `user-folder-in-project` warning). A repository
// made elsewhere is the home's only when its git folder names it back, as
// git writes one (b11fb08's rule).
describe("hostile-home-around-project rev41a F1: a tree outside a dotfiles home whose .git names a folder of ~/.git", () => {
  const FORGED = {
    "gitdir: ~/.git/modules/w (missing)": (home: string, w: string) =>
      writeFileSync(join(w, ".git"), `gitdir: ${join(home, ".git", "modules", "w")}\n`),
    "a link to ~/.git/hooks": (home: string, w: string) => {
      mkdirSync(join(home, ".git", "hooks"), { recursive: true });
      symlinkSync(join(home, ".git", "hooks"), join(w, ".git"));
    },
    "gitdir: ~/.git/worktrees/real (a worktree of yours elsewhere)": (home: string, w: string) => {
      linked(join(home, "..", "real"), join(home, ".git", "worktrees", "real"));
      writeFileSync(join(w, ".git"), `gitdir: ${join(home, ".git", "worktrees", "real")}\n`);
    },
  };

  for (const [name, forge] of Object.entries(FORGED)) {
    it(`W's .git ${name}: the home folder stays yours, your agent dir read untrusted`, async () => {
      const base = tempDir();
      const home = repository(join(base, "home"));
      mkdirSync(join(home, ".pi", "agent"), { recursive: true });
      writeFileSync(join(home, ".pi", "agent", "AGENTS.md"), "USER-AGENTS-MARKER\n");
      const w = join(base, "ext", "W");
      mkdirSync(join(w, "src"), { recursive: true });
      forge(home, w);
      const cwd = join(w, "src");
      expect(await projectHome([cwd], home)).toEqual([]);
      expect(await agentDirInProject(join(home, ".pi", "agent"), cwd, home)).toBe(false);
      const r = await renderSystemPrompt({ cwd, home, env: {}, projectTrusted: false });
      expect(r.text).toContain("USER-AGENTS-MARKER");
      expect(r.diagnostics.map((d) => d.code)).not.toContain("user-folder-in-project");
    });
  }

  it("a worktree of the home's repository made elsewhere, its gitdir files relative (git 2.48): the home's", async () => {
    const base = tempDir();
    const home = repository(join(base, "home"));
    const admin = join(home, ".git", "worktrees", "wt");
    mkdirSync(admin, { recursive: true });
    mkdirSync(join(base, "wt"));
    writeFileSync(join(admin, "gitdir"), "../../../../wt/.git\n");
    writeFileSync(join(base, "wt", ".git"), "gitdir: ../home/.git/worktrees/wt\n");
    expect(await projectHome([join(base, "wt")], home)).toEqual([home]);
  });
});

describe("hostile-home-around-project F2: HOME the checkout's root, its PATH entries from a subfolder", () => {
  it("~/bin and ~/.local/bin give no lspci from p/src and below", async () => {
    const base = tempDir();
    const p = repository(join(base, "p"));
    mkdirSync(join(p, "src", "deep"), { recursive: true });
    expect(await plantedFound(join(p, "src"), join(p, "bin"), p)).toBe(false);
    expect(await plantedFound(join(p, "src", "deep"), join(p, ".local", "bin"), p)).toBe(false);
  });

  it("export --hooks names the system's node, not the checkout's bin/node", async () => {
    const base = tempDir();
    const p = repository(join(base, "p"));
    mkdirSync(join(p, "bin"));
    mkdirSync(join(p, "src"));
    const node = realpathSync(process.execPath);
    symlinkSync(node, join(p, "bin", "node"));
    const PATH = [join(p, "bin"), dirname(node)].join(":");
    const named = await hookNode({ cwd: join(p, "src"), env: { PATH }, home: p }, node);
    expect(named).toBe(join(dirname(node), "node"));
  });

  it("a dotfiles home: a clone of its own keeps ~/bin yours; a folder with none nearer does not", async () => {
    // The decision: with no repository nearer than the home folder's own, the home folder is
    // the project, so the probes, git and the hook take the system's binaries, not ~/bin's.
    const base = tempDir();
    const home = repository(join(base, "home"));
    const clone = repository(join(home, "proj"));
    mkdirSync(join(home, "notes"));
    expect(await plantedFound(clone, join(home, "bin"), home)).toBe(true);
    expect(await plantedFound(join(home, "notes"), join(home, "bin"), home)).toBe(false);
  });
});

describe("hostile-home-around-project F6: the working folder inside HOME inside the checkout", () => {
  it("the checkout holding HOME is found past it: agent dir refused, .local/bin unused", async () => {
    const base = tempDir();
    const p = repository(join(base, "p"));
    const home = join(p, ".home");
    agentLink(join(home, ".pi", "agent"), base);
    for (const cwd of [join(home, "work"), repository(join(home, "work", "clone"))]) {
      mkdirSync(cwd, { recursive: true });
      expect(await untrusted(cwd, home)).toEqual({
        leaked: false,
        codes: ["agent-dir-in-project"],
      });
      expect(await plantedFound(cwd, join(home, ".local", "bin"), home)).toBe(false);
    }
  });
});

describe("hostile-home-around-project F3: no .git, HOME inside the project folder", () => {
  it("from p/src: agent dir refused, .home/.local/bin unused, the hook's node the system's", async () => {
    const base = tempDir();
    const p = join(base, "p");
    const home = join(p, ".home");
    mkdirSync(join(p, "src"), { recursive: true });
    writeFileSync(join(p, "AGENTS.md"), "# ctx\n");
    agentLink(join(home, ".pi", "agent"), base);
    const src = join(p, "src");
    expect(await untrusted(src, home)).toEqual({ leaked: false, codes: ["agent-dir-in-project"] });
    const bin = join(home, ".local", "bin");
    expect(await plantedFound(src, bin, home)).toBe(false);
    const node = realpathSync(process.execPath);
    symlinkSync(node, join(bin, "node"));
    const PATH = [bin, dirname(node)].join(":");
    expect(await hookNode({ cwd: src, env: { PATH }, home }, node)).toBe(
      join(dirname(node), "node"),
    );
    const opener = projectOwns(await projectRoots([src], [home], home));
    expect(await opener(home)).toBe(true);
  });

  it("a home folder beside the project, or holding it, stays yours", async () => {
    const base = tempDir();
    // The home folder holding the working folder (~/notes, no .git): yours, as always.
    const home = join(base, "home");
    mkdirSync(join(home, "notes"), { recursive: true });
    agentLink(join(home, ".pi", "agent"), base);
    expect(await agentDirInProject(join(home, ".pi", "agent"), join(home, "notes"), home)).toBe(
      false,
    );
    expect(await plantedFound(join(home, "notes"), join(home, "bin"), home)).toBe(true);
    // Siblings in the temporary folder (or /home, /Users): the folder they share is no project.
    const sibling = tempDir();
    expect(dirname(sibling)).toBe(tmpdir());
    expect(await projectFolders([base], [join(sibling, "bin")], sibling)).not.toContain(sibling);
    expect(await plantedFound(base, join(sibling, "bin"), sibling)).toBe(true);
  });

  // Run as root, whose tempDir is root's: seen from a user that is not root, as on a cluster.
  it.runIf(process.getuid?.() === 0)(
    "siblings in a folder root made, for a user that is not root (a cluster's /data), stay yours",
    async () => {
      const base = tempDir();
      const home = join(base, "home");
      const work = join(base, "scratch", "work");
      mkdirSync(work, { recursive: true });
      // As root, every folder is root's: only the names count, so the tarball case stands.
      expect(await projectFolders([work], [join(home, "bin")], home)).toContain(home);
      const getuid = vi.spyOn(process, "getuid").mockReturnValue(1000);
      try {
        expect(await projectFolders([work], [join(home, "bin")], home)).not.toContain(home);
      } finally {
        getuid.mockRestore();
      }
    },
  );
});

describe("hostile-home-around-project: the cost of the question", () => {
  /** The look-ups `projectHome` makes for `folder`. */
  async function lookUps(folder: string, home: string): Promise<number> {
    let count = 0;
    await recordReads({ has: () => false, note: () => void count++ }, () =>
      projectHome([folder], home),
    );
    return count;
  }

  it("a folder 200 deep is walked up only where the answer may be yes", async () => {
    const base = tempDir();
    const home = join(base, "home");
    let deep = join(home, "proj");
    for (let i = 0; i < 200; i++) deep = join(deep, "d");
    mkdirSync(deep, { recursive: true });
    // Under a home folder with no .git: a few look-ups, however deep.
    expect(await lookUps(deep, home)).toBeLessThan(10);
    // Elsewhere, in a folder no project could be (the temporary folder's own child): the same.
    expect(await lookUps(deep, tempDir())).toBeLessThan(10);
    // A dotfiles home: the walk up to it (the repository nearest may be it).
    mkdirSync(join(home, ".git"));
    expect(await lookUps(deep, home)).toBeGreaterThan(200);
  });
});
