import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileHgIgnore, MAX_HGIGNORE_PROGRAM } from "../../src/repo-files/hgignore.js";
import { hgIgnoreAround, NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { parseRegex, regexSize } from "../../src/repo-files/linear-regex.js";
import { holdsOwnHgWorkingCopy } from "../../src/repo-files/project-root.js";
import { tempDir } from "../api/_helpers.js";
import { giveAway, IS_ROOT } from "./_nobody.js";

// rev82e: the ignore files a working copy's `.hg/hgrc` names (rev82a F5's reader).
// F1: `ignore = l/id_rsa` with `l -> ~/.ssh` read your key as ignore patterns (O_NOFOLLOW checks
// the last name only): the tree and the door's refusals told a guessed line of it from a wrong
// guess, and a cut's warning quoted its line number and the character after a `\`.
// F3: one heavy file named 16 times (`l/big`, `l/l/big`, … with `l -> .`) was 17 programs, each
// with its own budget, compiled back to back past the deadline (415 MB, 1.5 s more CPU).
// F4: `.hg -> ~/.config/hg` read your own hgrc as the copy's; `.hg` linked to another user's
// folder was a copy of yours, judged by the link's owner.
// F5: an hgrc with a UTF-8 BOM or lone-CR line ends, or `[ui] ignore` in `.hg/hgrc-not-shared`,
// was not read as Mercurial reads it, and `--untrusted` inlined the file it ignores.

function copy(hgFolder = true) {
  const base = tempDir();
  const top = join(base, "myhg");
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(top, "src"), { recursive: true });
  if (hgFolder) mkdirSync(join(top, ".hg"));
  writeFileSync(join(top, "src", "SECRET-GUESS"), "");
  writeFileSync(join(top, "src", "WRONG-GUESS"), "");
  writeFileSync(join(top, "notes.private"), "SECRET\n");
  writeFileSync(join(top, ".hgignore.local"), "syntax: glob\nnotes.private\n");
  return { base, top, home };
}

const why = async (top: string, home: string, rel: string) =>
  (await privatePaths(top, { signal: NO_DEADLINE, hidden: false, home, env: {} })(join(top, rel)))
    ?.why;

describe("hostile repository: the files a .hg/hgrc names are the working copy's own", () => {
  it("hgrc-link-out: a name through a linked folder out of the copy is a cut, never read (F1)", async () => {
    const { base, top, home } = copy();
    const ssh = join(base, "ssh");
    mkdirSync(ssh);
    writeFileSync(join(ssh, "id_rsa"), "syntax: glob\nSECRET-GUESS\nab\\qcd\n");
    symlinkSync(ssh, join(top, "l"));
    writeFileSync(join(top, ".hg", "hgrc"), "[ui]\nignore = l/id_rsa\n");
    const said = await why(top, home, "src/SECRET-GUESS");
    expect(said).not.toBe("ignored by Mercurial (.hgignore)");
    expect(said).toContain("l/id_rsa leads out of the working copy, not read");
    // Nothing of the file: the wrong guess is answered alike, and no line of it is quoted.
    expect(await why(top, home, "src/WRONG-GUESS")).toBe(said);
    expect(said).not.toContain("line");
    // A name there that is missing is the same cut: whether your file exists is not told either.
    writeFileSync(join(top, ".hg", "hgrc"), "[ui]\nignore = l/nonexistent\n");
    expect(await why(top, home, "src/WRONG-GUESS")).toContain(
      "l/nonexistent leads out of the working copy, not read",
    );
  });

  it("hgrc-same-file: one file by many names is one program, one budget per copy (F3)", async () => {
    const { top } = copy();
    symlinkSync(".", join(top, "l"));
    const line = "^x{0,999}y";
    const each = regexSize(parseRegex(line, { regexCrate: true }));
    const lines = Math.ceil((MAX_HGIGNORE_PROGRAM * 0.6) / each);
    writeFileSync(join(top, "big"), `${line}\n`.repeat(lines));
    writeFileSync(join(top, "big2"), `${line}\n`.repeat(lines));
    writeFileSync(
      join(top, ".hg", "hgrc"),
      "[ui]\nignore.a = big\nignore.b = l/big\nignore.c = l/l/big\nignore.d = big2\n",
    );
    const copies = await hgIgnoreAround(top, { home: join(top, "..", "home"), signal: undefined });
    const files = copies.map((c) => c.file.slice(top.length + 1));
    // `big` once, `big2` too, but past the one budget: a cut.
    expect(files.sort()).toEqual(["big", "big2"]);
    expect(copies.find((c) => c.file.endsWith("big"))?.rules.cut).toBeUndefined();
    expect(copies.find((c) => c.file.endsWith("big2"))?.rules.cut).toContain(
      "past what this reader takes",
    );
    // A file compiled alone keeps the whole budget.
    expect(compileHgIgnore(`${line}\n`.repeat(lines)).cut).toBeUndefined();
  });

  it("hg-link-userconf: a .hg that is a link has no hgrc read (F4)", async () => {
    const { base, top, home } = copy(false);
    const conf = join(base, "config-hg");
    mkdirSync(conf);
    writeFileSync(join(conf, "hgrc"), "[ui]\nignore.rel = private-list.txt\n");
    writeFileSync(join(top, "private-list.txt"), "syntax: glob\nWRONG-GUESS\n");
    symlinkSync(conf, join(top, ".hg"), "dir");
    // The copy is still one (its own `.hgignore` counts), but your hgrc's value decides nothing.
    expect(await holdsOwnHgWorkingCopy(top)).toBe(true);
    expect(await why(top, home, "src/WRONG-GUESS")).toBeUndefined();
  });

  it.runIf(IS_ROOT)(
    "hg-link-other: a .hg link to another user's folder marks no copy (F4)",
    async () => {
      const { base, top } = copy(false);
      const other = join(base, "other", ".hg");
      mkdirSync(other, { recursive: true });
      writeFileSync(join(other, "hgrc"), "[ui]\nignore.OTHER = ~/.private-ignores\n");
      giveAway(join(base, "other"));
      symlinkSync(other, join(top, ".hg"), "dir");
      const refused: { reason: string }[] = [];
      expect(await holdsOwnHgWorkingCopy(top, refused as never)).toBe(false);
      expect(refused.map((r) => r.reason)).toEqual(["foreign-owner"]);
    },
  );

  const ways: Record<string, [string, string]> = {
    bom: ["hgrc", "\ufeff[ui]\nignore = .hgignore.local\n"],
    "lone-cr": ["hgrc", "[ui]\rignore = .hgignore.local\r"],
    "not-shared": ["hgrc-not-shared", "[ui]\nignore = .hgignore.local\n"],
  };
  for (const [way, [file, text]] of Object.entries(ways)) {
    it(`hgrc-${way}: read as Mercurial reads it, the file it ignores refused (F5)`, async () => {
      const { top, home } = copy();
      writeFileSync(join(top, ".hg", file), text);
      expect(await why(top, home, "notes.private")).toBe("ignored by Mercurial (.hgignore)");
    });
  }
});
