import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates } from "../../src/prompt-templates/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { gitRepository, KINDS, reported, TOKEN, touched, workingCopy } from "./_nested.js";

// Review rev45a F2, F3, F4 (issue 24): a boundary found below a root only ever
// takes away. hg44 ("git wins") made an hg, jj or svn working copy inside a git
// work tree take the git root as its project root, so a hostile clone in your
// workspace `W/vendor/evil` read `@../../.env`, `@../../.git/config` (the token
// in your remote URL), its link `cfg.md -> ../../.git/config` and, untrusted,
// W's committed `docs/roadmap.md` (F2: render, touch and every hook). And a
// planted git-folder look-alike (two committed files `HEAD` and `commondir`)
// rooted a door whose ignore rules were its own only: the tree's `.gitignore`
// and your `.git/info/exclude` no longer applied to a named path, a template
// path or a kit's import (F3). With a dotfiles home, your own hg clone's nested
// `@../` import was refused on render and read on touch (F4). Now any
// repository below another is a root of its own for confinement, while the
// repositories around it that git sees its files in keep their ignore rules.

const DOTENV = "SECRET-MARKER-DOTENV";
const LOCAL = "SECRET-MARKER-LOCALYML";
const KITCRED = "SECRET-MARKER-KITCRED";

/** A git repository as git lays one out, its remote URL holding {@link TOKEN}. */
const REPOSITORY = { whole: true, info: true, token: TOKEN } as const;

describe("hostile-nested-root-takes-away: a hostile hg, svn or jj clone in your git workspace is a root of its own", () => {
  for (const kind of KINDS) {
    it(`${kind}: render (trusted and untrusted), a named link and touch read nothing of the workspace`, async () => {
      const root = tempDir();
      const w = join(root, "W");
      const evil = join(w, "vendor", "evil");
      gitRepository(w, REPOSITORY);
      writeFileSync(join(w, ".gitignore"), ".env\n");
      writeFileSync(join(w, ".env"), `${DOTENV}\n`);
      mkdirSync(join(w, "docs"));
      writeFileSync(join(w, "docs", "roadmap.md"), "WORKSPACE-ROADMAP\n");
      mkdirSync(join(evil, "sub"), { recursive: true });
      workingCopy(kind, evil);
      writeFileSync(
        join(evil, "AGENTS.md"),
        "EVIL-MARKER\n@../../.env\n@../../.git/config\n@cfg.md\n@../../docs/roadmap.md\n",
      );
      symlinkSync("../../.git/config", join(evil, "cfg.md"));
      symlinkSync("../../.env", join(evil, "notes.md"));
      writeFileSync(join(evil, "sub", "AGENTS.md"), "SUB-MARKER\n@../../../.env\n");
      writeFileSync(join(evil, "sub", "x.ts"), "");
      for (const projectTrusted of [true, false]) {
        // From the clone's sub-folder: its own AGENTS.md and the clone's top one.
        const text = await reported(pinned(root, { cwd: join(evil, "sub"), projectTrusted }));
        expect(text).toContain("EVIL-MARKER");
        expect(text).toContain("SUB-MARKER");
        expect(text, `trusted ${projectTrusted}`).not.toContain("SECRET-MARKER");
        expect(text).not.toContain("WORKSPACE-ROADMAP");
        expect(text).toMatch(/import-outside: @\.\.\/\.\.\/\.env: not imported/);
        const named = await reported(
          pinned(root, { cwd: evil, projectTrusted, appendSystemPrompt: "notes.md" }),
        );
        expect(named).toMatch(/^refused: .*outside the project root/);
        // A session in your workspace: the model reads a file of the clone.
        const { text: given } = await touched(pinned(root, { cwd: w, projectTrusted }), [
          join(evil, "sub", "x.ts"),
        ]);
        expect(given).toContain("SUB-MARKER");
        expect(given, `touch, trusted ${projectTrusted}`).not.toContain("SECRET-MARKER");
        expect(given).not.toContain("WORKSPACE-ROADMAP");
      }
    });
  }
});

describe("hostile-nested-root-takes-away: a planted git-folder look-alike keeps the tree's ignore rules", () => {
  it("in the working project: a named link and a template path to a git-ignored file are refused (untrusted)", async () => {
    const root = tempDir();
    const e = join(root, "E");
    const config = join(e, "config");
    gitRepository(e, REPOSITORY);
    writeFileSync(join(e, ".gitignore"), "config/local.yml\n");
    mkdirSync(config);
    writeFileSync(join(config, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(config, "commondir"), ".\n");
    writeFileSync(join(config, "local.yml"), `${LOCAL}\n`);
    symlinkSync("local.yml", join(config, "notes.md"));
    symlinkSync("local.yml", join(config, "t.md"));
    const named = await reported(
      pinned(root, { cwd: e, projectTrusted: false, appendSystemPrompt: "config/notes.md" }),
    );
    expect(named).toMatch(/^refused: /);
    expect(named).not.toContain(LOCAL);
    const loaded = await loadPromptTemplates({
      cwd: e,
      agentDir: join(root, "agent"),
      home: join(root, "home"),
      projectTrusted: false,
      paths: ["config"],
    });
    expect(JSON.stringify(loaded.templates)).not.toContain(LOCAL);
    // Refused as inside a repository of its own, or as the tree's git-ignored file: never read.
    expect(loaded.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^file-(private|outside-project)$/)]),
    );
  });

  it("in a kit you import: its inner file's import of the kit's git-ignored file is refused (untrusted)", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const kit = join(home, "src", "prompt-kit");
    const inner = join(kit, "inner");
    gitRepository(kit, REPOSITORY);
    writeFileSync(join(kit, ".gitignore"), "credentials.json\n");
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(inner, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(inner, "commondir"), ".\n");
    writeFileSync(join(inner, "base.md"), "KIT-INNER-MARKER\n@credentials.json\n");
    writeFileSync(join(inner, "credentials.json"), `{"token":"${KITCRED}"}\n`);
    const options = pinned(root, { projectTrusted: false });
    writeFileSync(join(root, "agent", "AGENTS.md"), `USER-MARKER\n@${join(inner, "base.md")}\n`);
    const text = await reported(options);
    expect(text).toContain("KIT-INNER-MARKER");
    expect(text).not.toContain(KITCRED);
    expect(text).toMatch(/import-private: @credentials\.json/);
  });
});

describe("hostile-nested-root-takes-away: a dotfiles home holding your own hg clone", () => {
  it("a nested AGENTS.md's @../ import inside the clone is read on render, as on touch", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const mine = join(home, "src", "myhg");
    gitRepository(home, REPOSITORY);
    mkdirSync(join(mine, "sub"), { recursive: true });
    mkdirSync(join(mine, "docs"));
    workingCopy("hg", mine);
    writeFileSync(join(mine, "sub", "AGENTS.md"), "SUB-MARKER\n@../docs/x.md\n");
    writeFileSync(join(mine, "docs", "x.md"), "DOCX-MARKER\n");
    writeFileSync(join(mine, "sub", "y.ts"), "");
    for (const projectTrusted of [true, false]) {
      const text = await reported(pinned(root, { cwd: join(mine, "sub"), projectTrusted }));
      expect(text, `trusted ${projectTrusted}`).toContain("DOCX-MARKER");
      expect(text).not.toMatch(/import-outside/);
    }
    const { text: given } = await touched(pinned(root, { cwd: mine }), [join(mine, "sub", "y.ts")]);
    expect(given).toContain("DOCX-MARKER");
  });
});
