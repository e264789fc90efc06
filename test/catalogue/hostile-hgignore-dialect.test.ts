import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree, treeDiagnostics } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { compileHgIgnore } from "../../src/repo-files/hgignore.js";
import { tempDir } from "../api/_helpers.js";

// rev77a F1, F2, F3: a `.hgignore` line read one way by Python's Mercurial (and the door) and
// another by hg-core, the Rust status of a Mercurial built with its Rust extensions (the `regex`
// crate's dialect, `is_ascii_whitespace` trims, a Unicode-mode comment expression). hg-core
// ignored `secrets.yml`, the door read the line as Python does and `--untrusted` inlined the file.
// Where the readings may differ the line is now a cut: what it might hide is refused.
// F1: a `[` in a regexp's class (a nested class to the crate), `\<` / `\>` (word boundaries),
// class set operations (`&&`, `--`, `~~`), a byte past ASCII after `\` or before a repeat.
// F2: `syntax: glob` ending in \v (Python strips it, hg-core does not: regexp stays in force).
// F3: a byte that is not UTF-8 before a `#` (hg-core starts no comment there), a trailing 0xA0
// (an older hg-core trimmed it).

function hgProject(hgignore: Buffer, secret = "secrets.yml") {
  const base = tempDir();
  const project = join(base, "project");
  mkdirSync(join(project, ".hg"), { recursive: true });
  writeFileSync(join(project, ".hg", "requires"), "store\n");
  writeFileSync(join(project, ".hgignore"), hgignore);
  writeFileSync(join(project, "AGENTS.md"), `# Project\nSee @${secret}\n`);
  writeFileSync(join(project, secret), "db_password: HG-DIALECT-MARKER\n");
  mkdirSync(join(base, "home", ".pi", "agent"), { recursive: true });
  return { base, project };
}

const render = (base: string, project: string) =>
  renderSystemPrompt({
    cwd: project,
    home: join(base, "home"),
    agentDir: join(base, "home", ".pi", "agent"),
    env: {},
    projectTrusted: false,
    workspaceTree: true,
    treeMtime: "2026-01-10T09:00:00Z",
  });

const privateWhy = (r: Awaited<ReturnType<typeof render>>) =>
  r.diagnostics.filter((d) => d.code.endsWith("-private")).map((d) => d.message);

/** A `.hgignore` hg-core reads as ignoring secrets.yml (latin1: each char one byte). */
const SHAPES: readonly (readonly [string, string])[] = [
  ["F1 nested class", "^secrets[_[\\.]]yml\n"],
  ["F1 \\< word boundary", "^secrets\\.\\<yml\n"],
  ["F1 \\> word boundary", "^secrets\\.yml\\>\n"],
  ["F1 class intersection", "^secrets[^.&&_]yml\n"],
  ["F1 class difference", "^secrets[^.,--.]yml\n"],
  ["F1 class symmetric difference", "^secrets[^.~~.]yml\n"],
  ["F1 backslash before a byte past ASCII", "^secr[\\\xe9]ts\\.yml\n"],
  ["F1 a byte past ASCII repeated", "^secrets\xc3\xa9?\\.yml\n"],
  // A glob's class is handed to the crate too (hg-core's `glob_to_re`).
  ["F1 glob class intersection", "syntax: glob\nsecrets[!.&&_]yml\n"],
  ["F2 syntax: glob and \\v", "syntax: glob\x0b\n^secrets\\.yml\n"],
  ["F3 not UTF-8 before #", "^secrets\xff#|^secrets\\.yml\n"],
  ["F3 trailing 0xA0", "^secrets\\.yml\xa0\n"],
  ["F3 trailing 0x85", "^secrets\\.yml\x85\n"],
  // rev78f F1: the crate skips blanks (Unicode ones too) around a repeat count's digits, where
  // Python reads the `{` as a literal: any `{` after an atom that Python reads so is a cut.
  ["rev78f F1 blank after a count", "^secrets\\.yml{1 }$\n"],
  ["rev78f F1 blank before a count", "^secrets\\.yml{ 1}$\n"],
  ["rev78f F1 blanks around both counts", "^secrets\\.yml{ 1 , 1 }$\n"],
  ["rev78f F1 a group's count", "^secrets\\.ym(l){1, 1}\n"],
  ["rev78f F1 unanchored", "secret{1 }s\\.yml\n"],
  ["rev78f F1 a no-break space in a count", "^secrets\\.ym(l){1\xc2\xa0}$\n"],
  ["rev78f F1 an ideographic space in a count", "^secrets\\.yml{\xe3\x80\x801}$\n"],
  // Found by the differential fuzz (door against regex_syntax): after an anchor, a repeat, a lazy one.
  ["rev78f F1 fuzz: a count after ^", "^{1 }secrets\\.yml\n"],
  ["rev78f F1 fuzz: a count after a repeat", "^secrets\\.yml?{1 }$\n"],
  ["rev78f F1 fuzz: a count after a lazy repeat", "^secrets\\.ym?l??{ 1}$\n"],
];

describe("hostile repository: a .hgignore line hg-core reads otherwise is a cut", () => {
  for (const [name, hgignore] of SHAPES) {
    it(`${name}: the import is refused, the line named`, async () => {
      const { base, project } = hgProject(Buffer.from(hgignore, "latin1"));
      const result = await render(base, project);
      expect(result.text).not.toContain("HG-DIALECT-MARKER");
      expect(privateWhy(result).join("\n")).toMatch(/\.hgignore line \d|ignored by Mercurial/);
    });
  }

  it("F2: syntax: glob and \\v is no syntax to hg-core, whose regexp in force the tree honours too", async () => {
    const { base, project } = hgProject(
      Buffer.from("syntax: glob\x0b\n^secrets\\.yml\n", "latin1"),
    );
    const tree = await buildWorkspaceTree(project, {
      mtime: "2026-01-01T00:00:00Z",
      home: join(base, "home"),
    });
    expect(tree.rendered).toContain("AGENTS.md");
    expect(tree.rendered).not.toContain("secrets.yml");
  });

  // The newest hg-core parses a regular expression in the crate's Unicode mode: `.`, `\w` and a
  // negated class match one character, 1 to 4 bytes, where Python matches one byte.
  it("a name past ASCII: `.`, `\\w`, `[^x]` match a whole character too, as hg-core's Unicode mode does", async () => {
    for (const line of [
      "^secr.ts\\.yml$",
      "^secr\\wts\\.yml$",
      "^secr[^x]ts\\.yml$",
      "^secr.{1}ts",
    ]) {
      const { base, project } = hgProject(Buffer.from(`${line}\n`), "secr\u00e9ts.yml");
      const result = await render(base, project);
      expect(result.text, line).not.toContain("HG-DIALECT-MARKER");
      expect(privateWhy(result), line).toEqual([
        expect.stringContaining("ignored by Mercurial (.hgignore)"),
      ]);
    }
    // Python's one-byte reading stands, and an ASCII name is read as before (a name is matched as
    // its UTF-8 bytes: \u00e9 is two, one character to hg-core).
    const rules = compileHgIgnore("^a.b$\n^c\\w{2}d$\n");
    for (const path of ["axb", "a\u00e9b", "cxyd", "c\u00e9d", "c\u00e9xd"]) {
      expect(rules.ignores(path), path).toBe(true);
    }
    for (const path of ["ab", "axxb", "cxd"]) expect(rules.ignores(path), path).toBe(false);
  });

  it("what both read alike stays read: no cut", () => {
    for (const text of [
      "^build/\n\\.py[co]$\n^out[0-9]+/\n[\\[\\]]x\n^a[-_.]b\n(?:^|/)node_modules/\n",
      "syntax: glob\n[[]x\n*.log\nsecrets.yml \t\n",
      "^caf\xc3\xa9/\n# r\xc3\xa9sum\xc3\xa9\n",
    ]) {
      expect(compileHgIgnore(text).cut, text).toBeUndefined();
    }
    expect(compileHgIgnore("syntax: glob\n[[]x\n").ignores("[x")).toBe(true);
    // A cut line is still read as Python reads it.
    const rules = compileHgIgnore("^secrets\\.yml\x0b\n");
    expect(rules.cut).toContain("line 1");
    expect(rules.ignores("secrets.yml")).toBe(true);
  });
});

// rev78f F2: a `.hgignore` the door cannot read whole (an in-tree link, which Mercurial follows, a
// FIFO, a line it cuts): the door refuses below it, but the workspace tree listed the names it
// would hide and said nothing, where a `.gitignore` so gives `ignore-patterns-cut`. Now said alike.
describe("hostile repository: a .hgignore not read whole is said in the workspace tree", () => {
  const ways: Record<string, (project: string) => void> = {
    link: (project) => symlinkSync("conf/hgignore", join(project, ".hgignore")),
    fifo: (project) => execFileSync("mkfifo", [join(project, ".hgignore")]),
    "cut line": (project) => writeFileSync(join(project, ".hgignore"), "^secrets\\.yml\\b\n"),
    "nested copy's FIFO": (project) => {
      mkdirSync(join(project, "sub", ".hg"), { recursive: true });
      writeFileSync(join(project, "sub", "AGENTS.md"), "# Sub\n");
      execFileSync("mkfifo", [join(project, "sub", ".hgignore")]);
    },
  };
  for (const [way, make] of Object.entries(ways)) {
    it(`${way}: the names are shown and the cut is said (ignore-patterns-cut)`, async () => {
      const { base, project } = hgProject(Buffer.from("syntax: glob\nnothing-here\n"));
      mkdirSync(join(project, "conf"));
      writeFileSync(join(project, "conf", "hgignore"), "syntax: glob\nsecrets.yml\n");
      const nested = way.startsWith("nested");
      if (!nested) execFileSync("rm", [join(project, ".hgignore")]);
      make(project);
      const tree = await buildWorkspaceTree(project, {
        mtime: "2026-01-01T00:00:00Z",
        home: join(base, "home"),
        maxDepth: 3,
      });
      expect(tree.rendered).toContain("secrets.yml");
      const cut = treeDiagnostics(tree, project).filter((d) => d.code === "ignore-patterns-cut");
      const file = join(project, ...(nested ? ["sub"] : []), ".hgignore");
      expect(cut.map((d) => d.message).join("\n")).toContain(file);
      if (nested) return;
      // Rooted below the working copy's top, the top's `.hgignore` is named.
      const below = await buildWorkspaceTree(join(project, "conf"), {
        mtime: "2026-01-01T00:00:00Z",
        home: join(base, "home"),
      });
      const said = treeDiagnostics(below, join(project, "conf"));
      expect(said.map((d) => d.message).join("\n")).toContain(join(project, ".hgignore"));
    });
  }

  it("a .hgignore read whole says nothing", async () => {
    const { base, project } = hgProject(Buffer.from("syntax: glob\nsecrets.yml\n"));
    const tree = await buildWorkspaceTree(project, {
      mtime: "2026-01-01T00:00:00Z",
      home: join(base, "home"),
    });
    expect(tree.rendered).not.toContain("secrets.yml");
    expect(treeDiagnostics(tree, project).map((d) => d.code)).not.toContain("ignore-patterns-cut");
  });
});
