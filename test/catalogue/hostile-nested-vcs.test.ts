import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  NO_DEADLINE,
  projectReach,
  projectReachSync,
  readRepoText,
  readRepoTextSync,
} from "../../src/repo-files/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import {
  gitRepository,
  KINDS,
  type Kind,
  reported,
  TOKEN,
  touched,
  workingCopy,
} from "./_nested.js";
import { cli } from "./_output-link.js";

// Review rev42c F2 (medium): a repository of its own below a project root was
// told by its `.git` alone. Your Mercurial clone (`.hg/`, a token in
// `.hg/hgrc`'s `[paths]`), your Jujutsu clone made without git beside it
// (`.jj/repo`, the token in its store's git config) or your Subversion working
// copy (`.svn/`), placed in a hostile workspace E as `E/plugins/mine`, was E's
// folder: with E's folder link `p/m -> ../plugins/mine`, from your clone
// `--append-system-prompt ../../p/m/.hg/hgrc` and `../../p/m/.env` went into
// the prompt (E an unpacked tarball: `--untrusted` too; E a repository:
// trusted), E's `AGENTS.md` importing `@plugins/mine/.hg/hgrc` did the same,
// and from a tarball E `render -o ../../p/m/AGENTS.md` replaced your
// `AGENTS.md`. Such a working copy is now a repository of its own, as a clone
// with a `.git` is: out of E's reach, and the project root of its own folders.
// Review rev50a F2 (medium): Sapling (`.sl`), Bazaar (`.bzr`), Pijul
// (`.pijul`), Darcs (`_darcs`) and Fossil (`.fslckout`, `_FOSSIL_`) clones
// were still E's folders (E's `AGENTS.md` imported the token in their remote
// URL and their `.env`); they are now kinds of their own (KINDS).

const DOTENV = "SECRET-MARKER-DOTENV";
const MINE = "# my own rules MINE-MARKER\n";

/**
 * E at `root/E` (a git repository, or an unpacked tarball), your `kind` clone
 * in its `plugins/mine`, E's folder link `p/m` into it and E's `AGENTS.md`
 * importing the clone's secret files.
 */
function workspace(root: string, kind: Kind, eIsRepository: boolean) {
  const e = join(root, "E");
  const mine = join(e, "plugins", "mine");
  mkdirSync(join(e, "p"), { recursive: true });
  mkdirSync(join(mine, "src"), { recursive: true });
  if (eIsRepository) gitRepository(e, { whole: true });
  const secret = workingCopy(kind, mine, TOKEN);
  writeFileSync(join(mine, ".env"), `${DOTENV}\n`);
  writeFileSync(join(mine, "AGENTS.md"), MINE);
  writeFileSync(join(mine, "src", "x.ts"), "");
  symlinkSync("../plugins/mine", join(e, "p", "m"));
  return { e, mine, secret };
}

const WORKSPACES = [
  ["a git repository", true],
  ["an unpacked tarball", false],
] as const;

describe("hostile-nested-vcs: your hg, jj, svn, sl, bzr, pijul, darcs or fossil clone in a hostile workspace is a repository of its own", () => {
  for (const kind of KINDS) {
    for (const [what, eIsRepository] of WORKSPACES) {
      it(`${kind} clone, E ${what}: E's folder link into it reads nothing (trusted and untrusted)`, async () => {
        const root = tempDir();
        const { mine, secret } = workspace(root, kind, eIsRepository);
        for (const projectTrusted of [true, false]) {
          for (const [cwd, path] of [
            [mine, `../../p/m/${secret}`],
            [mine, "../../p/m/.env"],
            [join(mine, "src"), `../../../p/m/${secret}`],
          ] as const) {
            const text = await reported(
              pinned(root, { cwd, projectTrusted, appendSystemPrompt: path }),
            );
            const label = `${path} from ${cwd}, ${projectTrusted ? "trusted" : "untrusted"}`;
            expect(text, label).not.toContain("SECRET-MARKER");
            expect(text, label).toMatch(/^refused: .*a repository of its own/);
          }
        }
        // Your clone's own files, named in it, are yours to read. Named as a path
        // (`./`): a bare word such as fossil's `_FOSSIL_` is text (rev53d F5).
        const own = await reported(
          pinned(root, { cwd: mine, projectTrusted: true, appendSystemPrompt: `./${secret}` }),
        );
        expect(own).toContain(TOKEN);
      });

      it(`${kind} clone, E ${what}: render -o ../../p/m/AGENTS.md is refused at E's link`, async () => {
        const root = tempDir();
        const { e, mine } = workspace(root, kind, eIsRepository);
        mkdirSync(join(root, "agent"), { recursive: true });
        const out = await cli(root, mine, ["render", "-o", "../../p/m/AGENTS.md"]);
        expect([out.code, out.stderr]).toEqual([
          2,
          `sysprompt: --output: ${join(e, "p", "m")}: a symbolic link, not a folder: nothing is written through it\n`,
        ]);
        expect(readFileSync(join(mine, "AGENTS.md"), "utf8")).toBe(MINE);
      });

      it(`${kind} clone, E ${what}: E's AGENTS.md importing the clone's files gets none (render, touch, sync reads)`, async () => {
        const root = tempDir();
        const { e, mine, secret } = workspace(root, kind, eIsRepository);
        writeFileSync(
          join(e, "AGENTS.md"),
          `Workspace notes.\n@plugins/mine/${secret}\n@plugins/mine/.env\n`,
        );
        symlinkSync(`plugins/mine/${secret}`, join(e, "secret.md"));
        for (const projectTrusted of [true, false]) {
          const text = await reported(pinned(root, { cwd: mine, projectTrusted }));
          expect(text).not.toContain("SECRET-MARKER");
          expect(text).toContain("Workspace notes.");
          // A session in E touching your clone's file: E's files given, nothing of your clone's secrets.
          const { text: given } = await touched(pinned(root, { cwd: e, projectTrusted }), [
            join(mine, "src", "x.ts"),
          ]);
          expect(given).not.toContain("SECRET-MARKER");
        }
        // The door's readers, asynchronous and synchronous, rooted at E: E's link into the clone is refused.
        const reach = await projectReach({
          signal: NO_DEADLINE,
          start: e,
          home: join(root, "home"),
          trusted: true,
        });
        const read = await readRepoText(join(e, "secret.md"), { reach });
        expect(read.ok ? read.text : read.diagnostics[0]?.message).toMatch(
          /a repository of its own/,
        );
        const sync = readRepoTextSync(join(e, "secret.md"), {
          reach: projectReachSync({ start: e, home: join(root, "home") }),
        });
        expect(sync.ok ? sync.text : sync.diagnostics[0]?.message).toMatch(
          /a repository of its own/,
        );
      });
    }
  }
});

describe("hostile-nested-vcs: normal layouts stay one project", () => {
  for (const kind of KINDS) {
    for (const [what, eIsRepository] of WORKSPACES) {
      it(`your ${kind} clone in E ${what}: its own link and import, and a write in it, still work`, async () => {
        const root = tempDir();
        const { mine } = workspace(root, kind, eIsRepository);
        mkdirSync(join(mine, "docs"));
        writeFileSync(join(mine, "AGENTS.md"), `${MINE}@docs/rules.md\n`);
        writeFileSync(join(mine, "docs", "rules.md"), "OWN-IMPORT\n");
        writeFileSync(join(mine, "docs", "notes.md"), "OWN-NOTES\n");
        symlinkSync("docs/notes.md", join(mine, "notes.md"));
        for (const projectTrusted of [true, false]) {
          const text = await reported(
            pinned(root, {
              cwd: join(mine, "src"),
              projectTrusted,
              appendSystemPrompt: "../notes.md",
            }),
          );
          expect(text).toContain("MINE-MARKER");
          expect(text).toContain("OWN-IMPORT");
          expect(text).toContain("OWN-NOTES");
          expect(text).not.toMatch(/a repository of its own/);
        }
        // A session in E touching your clone's file: your clone's AGENTS.md and its import are given.
        const { text: given } = await touched(pinned(root, { cwd: join(root, "E") }), [
          join(mine, "src", "x.ts"),
        ]);
        expect(given).toContain("MINE-MARKER");
        expect(given).toContain("OWN-IMPORT");
        mkdirSync(join(root, "agent"), { recursive: true });
        const out = await cli(root, join(mine, "src"), ["render", "-o", "../out/AGENTS.md"]);
        expect([out.code, out.stderr]).toEqual([0, "sysprompt: wrote ../out/AGENTS.md\n"]);
      });
    }
  }

  it("an hg monorepo without a .git is one project: a nested AGENTS.md's @../ import in it is read (render and touch)", async () => {
    // Before, each folder of it was its own project, as a tarball's is: `@../shared.md` was refused.
    const root = tempDir();
    const m = join(root, "M");
    workingCopy("hg", m, TOKEN);
    mkdirSync(join(m, "pkg", "sub"), { recursive: true });
    writeFileSync(join(m, "pkg", "sub", "AGENTS.md"), "SUB-RULES\n@../shared.md\n");
    writeFileSync(join(m, "pkg", "shared.md"), "SHARED-IMPORT\n");
    writeFileSync(join(m, "pkg", "sub", "x.ts"), "");
    const text = await reported(pinned(root, { cwd: join(m, "pkg", "sub") }));
    expect(text).toContain("SUB-RULES");
    expect(text).toContain("SHARED-IMPORT");
    const { text: given } = await touched(pinned(root, { cwd: m }), [
      join(m, "pkg", "sub", "x.ts"),
    ]);
    expect(given).toContain("SHARED-IMPORT");
  });

  it("a git repository with an .hg of its own at its top (a mirror), and your hg repository holding your git clone", async () => {
    const root = tempDir();
    const g = join(root, "G");
    gitRepository(g, { whole: true });
    workingCopy("hg", g, TOKEN);
    mkdirSync(join(g, "src"));
    mkdirSync(join(g, "docs"));
    writeFileSync(join(g, "AGENTS.md"), "G-RULES\n@docs/g.md\n");
    writeFileSync(join(g, "docs", "g.md"), "G-IMPORT\n");
    symlinkSync("../docs/g.md", join(g, "src", "AGENTS.md"));
    const w = join(root, "W");
    const lib = join(w, "vendor", "lib");
    workingCopy("hg", w, TOKEN);
    writeFileSync(join(w, "AGENTS.md"), "W-RULES\n");
    gitRepository(lib, { whole: true });
    mkdirSync(join(lib, "src"));
    mkdirSync(join(lib, "docs"));
    writeFileSync(join(lib, "AGENTS.md"), "LIB-RULES\n@docs/l.md\n");
    writeFileSync(join(lib, "docs", "l.md"), "LIB-IMPORT\n");
    for (const projectTrusted of [true, false]) {
      const gText = await reported(pinned(root, { cwd: join(g, "src"), projectTrusted }));
      expect(gText).toContain("G-RULES");
      expect(gText.match(/G-IMPORT/g)?.length).toBe(2);
      expect(gText).not.toMatch(/a repository of its own/);
      const libText = await reported(pinned(root, { cwd: join(lib, "src"), projectTrusted }));
      for (const m of ["W-RULES", "LIB-RULES", "LIB-IMPORT"]) expect(libText).toContain(m);
    }
  });
});

// Review rev44a F1 (high, a regression of hg43): a hostile git repository E
// committed `config/.hg/hgrc` (or `config/.svn/x`, or `config/.jj/repo` as a
// file or a dangling link); `config/` became a project root of its own, read
// with its own ignore rules only, so E's `.gitignore` and your clone's
// `.git/info/exclude` stopped applying in it: untrusted, `config/AGENTS.md`'s
// `@local.yml` on touch and from `E/config`, Gemini's `context.fileName`
// naming it, and a named link to it read your git-ignored files. hg44's "git
// wins" (such a folder never a root inside a git work tree) opened rev45a F2;
// now a boundary only takes away: `config/` is a root of its own for
// confinement, while E's ignore rules and your exclude file still apply in it.

const LOCAL = "SECRET-MARKER-LOCALYML";
const EXCLUDED = "SECRET-MARKER-EXCLUDED";

/** What E plants in `config/` to make it look like a working copy of its own. */
const PLANTED = {
  hg: (dir: string) => {
    mkdirSync(join(dir, ".hg"));
    writeFileSync(join(dir, ".hg", "hgrc"), "[ui]\n");
  },
  svn: (dir: string) => {
    mkdirSync(join(dir, ".svn"));
    writeFileSync(join(dir, ".svn", "x"), "x\n");
  },
  "jj (a file)": (dir: string) => {
    mkdirSync(join(dir, ".jj"));
    writeFileSync(join(dir, ".jj", "repo"), "x\n");
  },
  "jj (a dangling link)": (dir: string) => {
    mkdirSync(join(dir, ".jj"));
    symlinkSync("nowhere", join(dir, ".jj", "repo"));
  },
} as const;

/** E: a git repository ignoring `config/local.yml` (.gitignore) and `config/local2.yml` (.git/info/exclude). */
function plantedRepository(root: string, plant: (dir: string) => void) {
  const e = join(root, "E");
  const config = join(e, "config");
  gitRepository(e, { whole: true, info: true });
  writeFileSync(join(e, ".git", "info", "exclude"), "config/local2.yml\n");
  writeFileSync(join(e, ".gitignore"), "config/local.yml\n");
  mkdirSync(config);
  writeFileSync(join(config, "local.yml"), `${LOCAL}\n`);
  writeFileSync(join(config, "local2.yml"), `${EXCLUDED}\n`);
  writeFileSync(join(config, "app.yml"), "app: 1\n");
  writeFileSync(join(config, "AGENTS.md"), "CONFIG-RULES\n@local.yml\n@local2.yml\n");
  symlinkSync("local.yml", join(config, "notes.md"));
  plant(config);
  return { e, config };
}

describe("hostile-nested-vcs: an .hg, .svn or .jj/repo planted in a git work tree does not unhide its git-ignored files", () => {
  for (const [kind, plant] of Object.entries(PLANTED)) {
    it(`${kind} in E/config: touch, render from E/config, Gemini's fileName and a named link read no ignored file (untrusted)`, async () => {
      const root = tempDir();
      const { e, config } = plantedRepository(root, plant);
      // On touch, from an untrusted session at E's top.
      const { text: given } = await touched(pinned(root, { cwd: e, projectTrusted: false }), [
        join(config, "app.yml"),
      ]);
      expect(given).toContain("CONFIG-RULES");
      expect(given).not.toContain("SECRET-MARKER");
      // A render started in E/config, untrusted: its own root, with E's ignore rules still applying.
      const text = await reported(pinned(root, { cwd: config, projectTrusted: false }));
      expect(text).toContain("CONFIG-RULES");
      expect(text).not.toContain("SECRET-MARKER");
      // A link E committed, named from E/config and from E's top, untrusted.
      for (const [cwd, path] of [
        [config, "notes.md"],
        [e, "config/notes.md"],
      ] as const) {
        const named = await reported(
          pinned(root, { cwd, projectTrusted: false, appendSystemPrompt: path }),
        );
        expect(named, `${path} from ${cwd}`).toMatch(/^refused: /);
        expect(named, `${path} from ${cwd}`).not.toContain("SECRET-MARKER");
      }
      // Gemini's context.fileName naming the ignored files: touched, trusted or not (with no
      // AGENTS.md beside them: a trusted project's own import of its ignored file is read). The
      // planted marker makes E/config a repository of its own, where E's settings name no file
      // (only the default names are looked for there, review rev101a F1): neither is looked at.
      rmSync(join(config, "AGENTS.md"));
      mkdirSync(join(e, ".gemini"));
      writeFileSync(
        join(e, ".gemini", "settings.json"),
        JSON.stringify({ context: { fileName: ["AGENTS.md", "local.yml", "local2.yml"] } }),
      );
      for (const projectTrusted of [true, false]) {
        const r = await touched(pinned(root, { cwd: e, projectTrusted }), [
          join(config, "app.yml"),
        ]);
        expect(r.text, `fileName, trusted ${projectTrusted}`).not.toContain("SECRET-MARKER");
        expect(r.codes).not.toContain("context-ignored");
      }
    });
  }
});
