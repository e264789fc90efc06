import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// `eject --diff NAME` read the project's copy (`.pi/sections/NAME.md`, `.pi/general-rules.md`)
// and its kept base without following a link at the file's own name, but a folder link on the
// way was followed: a checkout's `.pi/sections -> ../../home/notes` printed `~/notes/git.md` whole
// as "your copy" (with --json any lowercase name did), and `.pi -> ~/.pi/agent` printed your own
// sections. A render, check, sections and explain refuse those links (file-outside-project); the
// diff now reads the project's files through the same door, within the project: exit 2, the path
// said, nothing of the file printed. A folder link that stays in the project is followed as a
// render follows it, and the user layer (--user) keeps your own links.

const SECRET = "SECRET-MARKER-NOTES";

/** A checkout `p` (a git root) beside a home folder holding notes and an agent dir of yours. */
function setup() {
  const root = tempDir();
  for (const dir of ["p/.git", "p/.pi", "home/notes", "home/.pi/agent/sections", "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "home/notes/git.md"), `my notes: ${SECRET}\n`);
  writeFileSync(join(root, "home/notes/todo.md"), `TODO ${SECRET}\n`);
  writeFileSync(join(root, "home/.pi/agent/sections/rules.md"), `---\norder: 10\n---\n${SECRET}\n`);
  writeFileSync(join(root, "home/.pi/agent/general-rules.md"), `- ${SECRET}\n`);
  return root;
}

const sp = (root: string, ...argv: string[]) =>
  cli(root, join(root, "p"), ["eject", "--agent-dir", join(root, "agent"), ...argv], {
    pinned: false,
  });

describe("hostile-eject-diff-folder-link: eject --diff through a folder link of the project", () => {
  it("`.pi/sections` linked to a folder of yours: refused, exit 2, nothing printed", async () => {
    const root = setup();
    symlinkSync("../../home/notes", join(root, "p/.pi/sections"));
    for (const argv of [
      ["--diff", "git"],
      ["--diff", "git", "--json"],
      ["--diff", "todo", "--json"],
    ]) {
      const out = await sp(root, ...argv);
      const file = join(root, "p/.pi/sections", `${argv[1]}.md`);
      expect([out.code, out.stdout, out.stderr]).toEqual([
        2,
        "",
        `sysprompt: ${file}: not read: it resolves to ${join(root, "home/notes", `${argv[1]}.md`)}, outside the project root ${join(root, "p")}\n`,
      ]);
    }
  });

  it("`.pi` linked to your agent dir: neither your sections nor your general rules", async () => {
    const root = setup();
    renameSync(join(root, "p/.pi"), join(root, "p/.pi-gone"));
    symlinkSync("../home/.pi/agent", join(root, "p/.pi"));
    for (const name of ["rules", "general-rules"]) {
      const out = await sp(root, "--diff", name);
      expect([out.code, out.stdout]).toEqual([2, ""]);
      expect(out.stderr).toContain("outside the project root");
      expect(out.stderr).not.toContain(SECRET);
    }
  });

  it("a kept base through a link out of the project is not read: a warning, the diff still shown", async () => {
    const root = setup();
    expect((await sp(root, "git")).code).toBe(0);
    renameSync(join(root, "p/.pi/.sysprompt"), join(root, "home/kept"));
    symlinkSync("../../home/kept", join(root, "p/.pi/.sysprompt"));
    const out = await sp(root, "--diff", "git", "--json");
    expect(out.code).toBe(0);
    const diff = JSON.parse(out.stdout) as { diagnostics: { code: string; path: string }[] };
    expect(diff.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["file-outside-project", join(root, "p/.pi/.sysprompt/base/git.md")],
    ]);
  });

  it("held: a folder link inside the project is followed, as a render follows it", async () => {
    const root = setup();
    mkdirSync(join(root, "p/shared"));
    writeFileSync(join(root, "p/shared/git.md"), "our own git notes\n");
    symlinkSync("../shared", join(root, "p/.pi/sections"));
    const out = await sp(root, "--diff", "git");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("+our own git notes");
  });

  // Your own link within your home (a file of yours linked out of your home and agent dir is
  // refused, as a render refuses it: review rev107a F2).
  it("held: --user reads your agent dir through your own link", async () => {
    const root = setup();
    mkdirSync(join(root, "home/dotfiles"));
    writeFileSync(join(root, "home/dotfiles/rules.md"), "mine, linked\n");
    symlinkSync(join(root, "home/dotfiles"), join(root, "agent/sections"));
    const out = await sp(root, "--diff", "rules", "--user");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("+mine, linked");
  });
});
