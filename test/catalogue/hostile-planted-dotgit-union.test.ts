import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pinned, tempDir } from "../api/_helpers.js";
import { gitRepository, reported, touched } from "./_nested.js";

// Review rev46a F1 (issue 24): hg45 keeps your workspace's ignore rules in a
// hg, jj or svn clone nested in it, but not in a folder holding a `.git`, and
// any entry of that name counted: an empty file, a link to nowhere, an empty
// folder, a `gitdir:` naming nothing. A Mercurial clone or a tarball can ship
// one, and git takes none of them for a repository: `git check-ignore` in
// your workspace still says the clone's `config/local.yml` is ignored. Under
// --untrusted the clone's `@config/local.yml` then read your key there, on
// render and on touch, and the workspace tree listed its name. Now a `.git`
// counts only where git would use it (a git folder, a link to one, a
// `gitdir:` file naming one); any other is no boundary of rules, while the
// folder stays a root of its own for confinement.

const ENV = "SECRET-MARKER-DOTENV";
const LOCAL = "SECRET-MARKER-LOCALYML";
const KEY = "SECRET-MARKER-EXCLUDED";

/** `.git` entries git does not take for a repository's. */
const PLANTS: Record<string, (dir: string) => void> = {
  "an empty file": (dir) => writeFileSync(join(dir, ".git"), ""),
  "a gitdir: naming nothing": (dir) => writeFileSync(join(dir, ".git"), "gitdir: /nonexistent\n"),
  "a gitdir: naming an empty folder": (dir) => {
    mkdirSync(join(dir, "fake"));
    writeFileSync(join(dir, ".git"), "gitdir: fake\n");
  },
  "a link to nowhere": (dir) => symlinkSync("/nonexistent", join(dir, ".git")),
  "an empty folder": (dir) => mkdirSync(join(dir, ".git")),
  "a folder with a HEAD only": (dir) => {
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  },
};

/** A line of the workspace tree naming `name` (a name and its size). */
const listed = (name: string) => new RegExp(`^\\s*${name.replace(".", "\\.")} {2}`, "m");

describe("hostile-planted-dotgit-union: a .git git would not use keeps your workspace's ignore rules", () => {
  for (const [plant, make] of Object.entries(PLANTS)) {
    for (const at of ["top", "sub"] as const) {
      it(`${plant} at the clone's ${at}: render, tree and touch (untrusted) read nothing ignored`, async () => {
        const root = tempDir();
        const w = join(root, "W");
        const evil = join(w, "vendor", "evil");
        const config = join(evil, "config");
        gitRepository(w, { whole: true, info: true });
        writeFileSync(join(w, ".gitignore"), ".env\nvendor/evil/config/local.yml\n");
        writeFileSync(join(w, ".git", "info", "exclude"), "vendor/evil/config/key.txt\n");
        writeFileSync(join(w, ".env"), `${ENV}\n`);
        mkdirSync(join(evil, ".hg"), { recursive: true });
        mkdirSync(config);
        make(at === "top" ? evil : config);
        writeFileSync(
          join(evil, "AGENTS.md"),
          "EVIL-MARKER\n@config/local.yml\n@config/notes.md\n@config/key.txt\n@../../.env\n",
        );
        symlinkSync("local.yml", join(config, "notes.md"));
        writeFileSync(join(config, "AGENTS.md"), "CFG-MARKER\n@local.yml\n@key.txt\n");
        writeFileSync(join(config, "local.yml"), `token: ${LOCAL}\n`);
        writeFileSync(join(config, "key.txt"), `${KEY}\n`);
        writeFileSync(join(config, "x.ts"), "");
        const options = { projectTrusted: false, workspaceTree: true } as const;
        for (const cwd of [evil, config]) {
          const text = await reported(pinned(root, { ...options, cwd }));
          expect(text).toContain(cwd === config ? "CFG-MARKER" : "EVIL-MARKER");
          expect(text, `render from ${cwd}`).not.toContain("SECRET-MARKER");
          expect(text).toMatch(/import-(private|outside): @(config\/)?local\.yml/);
          expect(text).toMatch(listed("x.ts"));
          expect(text, `tree from ${cwd}`).not.toMatch(listed("local.yml"));
          expect(text, `tree from ${cwd}`).not.toMatch(listed("key.txt"));
        }
        // Still a root of its own: the workspace's .env is outside it.
        const top = await reported(pinned(root, { ...options, cwd: evil }));
        expect(top).toMatch(/import-(outside|private): @\.\.\/\.\.\/\.env/);
        // A session in your workspace, the clone untrusted: the model touches a file of the clone.
        const { text: given } = await touched(pinned(root, { cwd: w, projectTrusted: false }), [
          join(config, "x.ts"),
        ]);
        expect(given).toContain("CFG-MARKER");
        expect(given, "touch").not.toContain("SECRET-MARKER");
      });
    }
  }
});
