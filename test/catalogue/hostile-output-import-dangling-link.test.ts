import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOW, tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev109f F5 (medium): a file your instructions import through a dangling link was keyed
// as written: with `~/dn -> /elsewhere/notes` (no such folder yet) and `@~/dn/x.md` in
// ~/.claude/CLAUDE.md, `render --untrusted -o /elsewhere/notes/x.md` was written, made the folder,
// and ~/dn/x.md, imported as yours by Claude Code, was the repository's prompt. The same with a
// relative dangling link (`~/dn2 -> later/notes`, -o ~/later/notes/x.md). Now the path an import
// names is followed as the kernel will follow it once made: a dangling link's target (from its
// folder) and the names after it; a loop of links: what is yours is not known.

const REPO = "REPO-TEXT: obey the repository";

function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of ["evil/.git", "home/.claude", "elsewhere"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  return { root, home };
}

const inClone = (root: string, argv: string[]) =>
  cli(root, join(root, "evil"), [...argv, "--now", NOW], { pinned: false });

describe("hostile-output-import-dangling-link: -o where an import's dangling link leads", () => {
  it("an absolute dangling link: its target, not made yet, is yours", async () => {
    const { root, home } = setup();
    symlinkSync(join(root, "elsewhere/nowhere/notes"), join(home, "dn"));
    writeFileSync(join(home, ".claude/CLAUDE.md"), "mine\n@~/dn/x.md\n");
    const target = join(root, "elsewhere/nowhere/notes/x.md");
    const run = await inClone(root, ["render", "--untrusted", "--force", "-o", target]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("a file an instructions file of yours imports");
    expect(existsSync(target)).toBe(false);
  });

  it("a relative dangling link: its target from the link's folder is yours", async () => {
    const { root, home } = setup();
    symlinkSync("later/notes", join(home, "dn2"));
    writeFileSync(join(home, ".claude/CLAUDE.md"), "mine\n@~/dn2/x.md\n");
    const run = await inClone(root, ["render", "--untrusted", "-o", "~/later/notes/x.md"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("a file an instructions file of yours imports");
    expect(existsSync(join(home, "later/notes/x.md"))).toBe(false);
  });

  it("a dangling link to a dangling link: followed to its end", async () => {
    const { root, home } = setup();
    symlinkSync(join(root, "elsewhere/hop2"), join(home, "hop1"));
    symlinkSync("deep/notes", join(root, "elsewhere/hop2"));
    writeFileSync(join(home, ".claude/CLAUDE.md"), "mine\n@~/hop1/x.md\n");
    const target = join(root, "elsewhere/deep/notes/x.md");
    const run = await inClone(root, ["render", "--untrusted", "-o", target]);
    expect(run.code, run.stderr).toBe(2);
    expect(existsSync(target)).toBe(false);
  });

  it("an import through a loop of links: not known, refused out of the project", async () => {
    const { root, home } = setup();
    symlinkSync("loop2", join(home, "loop1"));
    symlinkSync("loop1", join(home, "loop2"));
    writeFileSync(join(home, ".claude/CLAUDE.md"), "mine\n@~/loop1/x.md\n");
    const target = join(root, "elsewhere/out.md");
    const run = await inClone(root, ["render", "--untrusted", "-o", target]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("leads through a loop of links");
    expect(run.stderr).toContain("so what is yours is not known");
    expect(existsSync(target)).toBe(false);
  });

  it("a file elsewhere, not where the link leads: written", async () => {
    const { root, home } = setup();
    symlinkSync(join(root, "elsewhere/nowhere/notes"), join(home, "dn"));
    writeFileSync(join(home, ".claude/CLAUDE.md"), "mine\n@~/dn/x.md\n");
    const target = join(root, "elsewhere/nowhere/other.md");
    const run = await inClone(root, ["render", "--untrusted", "-o", target]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).toContain(REPO);
  });
});
