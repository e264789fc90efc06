import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRepoText } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// The door's rule for a file of yours (review rev99a): never a private file of your home, by its
// real path or, with more than one name, by identity; a file of more than one name that could not
// be compared with all of them is refused too.

function home(): string {
  const h = join(tempDir(), "home");
  mkdirSync(join(h, ".ssh"), { recursive: true });
  writeFileSync(join(h, ".ssh/id_rsa"), "KEY\n");
  writeFileSync(join(h, "notes.md"), "NOTES\n");
  return h;
}

const said = (r: Awaited<ReturnType<typeof readRepoText>>) =>
  r.ok ? "read" : (r.diagnostics[0]?.message ?? r.reason);

describe("a file of yours is never one of your private files", () => {
  it("your plain file and a hard link to a file not private are read", async () => {
    const h = home();
    linkSync(join(h, "notes.md"), join(h, "twin.md"));
    expect(said(await readRepoText(join(h, "notes.md"), { own: undefined, home: h }))).toBe("read");
    expect(said(await readRepoText(join(h, "twin.md"), { own: undefined, home: h }))).toBe("read");
  });

  it("a link to your key, and a hard link to it, are refused", async () => {
    const h = home();
    symlinkSync(join(h, ".ssh/id_rsa"), join(h, "link.md"));
    linkSync(join(h, ".ssh/id_rsa"), join(h, "hard.md"));
    expect(said(await readRepoText(join(h, "link.md"), { own: undefined, home: h }))).toMatch(
      /~\/\.ssh\/id_rsa, a private file of yours/,
    );
    expect(said(await readRepoText(join(h, "hard.md"), { own: undefined, home: h }))).toMatch(
      /another name \(a hard link\) of ~\/\.ssh\/id_rsa, a private file of yours/,
    );
  });

  it("~/.ssh linked to ~/dotfiles/ssh: the key there is as private", async () => {
    const h = join(tempDir(), "home");
    mkdirSync(join(h, "dotfiles/ssh"), { recursive: true });
    writeFileSync(join(h, "dotfiles/ssh/id_rsa"), "KEY\n");
    symlinkSync(join(h, "dotfiles/ssh"), join(h, ".ssh"));
    symlinkSync(join(h, "dotfiles/ssh/id_rsa"), join(h, "link.md"));
    expect(said(await readRepoText(join(h, "link.md"), { own: undefined, home: h }))).toMatch(
      /a private file of yours/,
    );
  });

  it("past the bound of your private places (folders more than 6 deep), a file of more than one name is refused", async () => {
    const h = home();
    mkdirSync(join(h, ".password-store/a/b/c/d/e/f/g"), { recursive: true });
    linkSync(join(h, "notes.md"), join(h, "twin.md"));
    writeFileSync(join(h, "plain.md"), "PLAIN\n");
    expect(said(await readRepoText(join(h, "twin.md"), { own: undefined, home: h }))).toMatch(
      /could not all be compared with it \(folders more than 6 deep\)/,
    );
    // A file of one name costs no look at them.
    expect(said(await readRepoText(join(h, "plain.md"), { own: undefined, home: h }))).toBe("read");
  });
});
