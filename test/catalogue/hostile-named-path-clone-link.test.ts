import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSnapshots } from "../../src/author/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { gitRepository, rendered, TOKEN } from "./_nested.js";
import { cli } from "./_output-link.js";

// A hostile workspace E (a git repository, or an unpacked tarball with no .git) has you
// clone your plugin into E/plugins/mine, and ships FOLDER links into it: `prompts/base ->
// ../plugins/mine/.git`, `prompts/style -> ../plugins/mine`, `out -> plugins/mine`. From
// your clone, a path you name that leaves it into E (`../../prompts/base/config`, or the
// same by its absolute path) was decided on its real path first: it came back into your
// clone, and was read as your clone's file named directly: its `.git/config` (a token in
// the remote's URL) and its git-ignored `.env` went into the prompt, `--untrusted` too,
// while E's FILE link to the same `.env` was refused (a clone nested in E is out of E's
// reach). Writes took the same turn when E is a tarball: `render -o ../../out/AGENTS.md`
// replaced your clone's AGENTS.md, `-o ../../gitlink/config` your `.git/config`, and
// `snapshot ../../snapsmine --update` wrote goldens in your clone's scenario folder. A path
// is now decided as written first: out of your clone into a folder around it that is not
// your own, it is that folder's file, and its links never reach your clone. Review rev41d
// F1, F2. And `--allow-git-dir gitstore`, the checkout's `gitstore` a link to another
// repository of yours, allowed that repository by its real path (the git section showed its
// commit subjects): a git folder named into the project through its link is refused. F3.

const DOTENV = "SECRET-MARKER-DOTENV";

/** E at `root/E` (a repository or not), your clone in its `plugins/mine`, and E's links into the clone. */
function workspace(root: string, eIsRepository: boolean): { e: string; mine: string } {
  const e = join(root, "E");
  const mine = join(e, "plugins", "mine");
  mkdirSync(join(e, "prompts"), { recursive: true });
  if (eIsRepository) gitRepository(e, { token: TOKEN });
  gitRepository(mine, { token: TOKEN });
  writeFileSync(join(mine, ".gitignore"), ".env\n");
  writeFileSync(join(mine, ".env"), `${DOTENV}\n`);
  writeFileSync(join(mine, "AGENTS.md"), "# my own rules\n");
  symlinkSync("../plugins/mine/.git", join(e, "prompts", "base"));
  symlinkSync("../plugins/mine", join(e, "prompts", "style"));
  symlinkSync("plugins/mine", join(e, "out"));
  symlinkSync("plugins/mine/.git", join(e, "gitlink"));
  return { e, mine };
}

const kinds = [
  ["a git repository", true],
  ["an unpacked tarball (no .git)", false],
] as const;

describe("hostile-named-path-clone-link: a workspace's folder link back into your clone", () => {
  for (const [kind, eIsRepository] of kinds) {
    for (const projectTrusted of [true, false]) {
      it(`E ${kind}: ../../prompts/base/config and ../../prompts/style/.env from your clone are E's, refused (${projectTrusted ? "trusted" : "untrusted"})`, async () => {
        const root = tempDir();
        const { e, mine } = workspace(root, eIsRepository);
        mkdirSync(join(mine, "src"));
        for (const [cwd, named] of [
          [mine, { appendSystemPrompt: "../../prompts/base/config" }],
          [mine, { appendSystemPrompt: "../../prompts/style/.env" }],
          [mine, { systemPrompt: "../../prompts/base/config" }],
          [mine, { systemPrompt: join(e, "prompts", "base", "config") }],
          [join(mine, "src"), { appendSystemPrompt: "../../../prompts/base/config" }],
        ] as const) {
          const text = await rendered(pinned(root, { cwd, projectTrusted, ...named }));
          expect(text, JSON.stringify(named)).not.toContain("SECRET-MARKER");
          expect(text, JSON.stringify(named)).toMatch(/^refused: .*a repository of its own/);
        }
        // Your clone's own file, named in it, is still yours to read.
        const own = await rendered(
          pinned(root, { cwd: mine, projectTrusted, appendSystemPrompt: ".git/config" }),
        );
        expect(own).toContain(TOKEN);
      });
    }
  }

  for (const [kind, eIsRepository] of kinds) {
    it(`E ${kind}: through your own link ~/ws to E, E's link into your clone is still E's (read and write)`, async () => {
      // Your link makes the path leave at a folder of yours, so it is decided on its real
      // folders; the link that leads into your clone is E's, and E's links never reach it.
      const root = tempDir();
      const { e, mine } = workspace(root, eIsRepository);
      mkdirSync(join(root, "home"), { recursive: true });
      symlinkSync(e, join(root, "home", "ws"));
      for (const projectTrusted of [true, false]) {
        for (const named of [
          { appendSystemPrompt: "~/ws/prompts/base/config" },
          { systemPrompt: join(root, "home", "ws", "prompts", "style", ".env") },
        ]) {
          const text = await rendered(pinned(root, { cwd: mine, projectTrusted, ...named }));
          expect(text, JSON.stringify(named)).not.toContain("SECRET-MARKER");
          expect(text, JSON.stringify(named)).toMatch(/^refused: .*a repository of its own/);
        }
      }
      mkdirSync(join(root, "agent"), { recursive: true });
      const out = await cli(root, mine, ["render", "-o", join(root, "home/ws/out/AGENTS.md")]);
      expect([out.code, out.stderr]).toEqual([
        2,
        `sysprompt: --output: ${join(e, "out")}: a symbolic link, not a folder: nothing is written through it\n`,
      ]);
      expect(readFileSync(join(mine, "AGENTS.md"), "utf8")).toBe("# my own rules\n");
    });
  }

  it("E a tarball: render -o, export --out and -o into your .git through E's links are refused, your clone untouched", async () => {
    const root = tempDir();
    const { mine } = workspace(root, false);
    mkdirSync(join(root, "agent"));
    const config = readFileSync(join(mine, ".git", "config"), "utf8");
    for (const [argv, flag, link] of [
      [["render", "-o", "../../out/AGENTS.md"], "--output", "out"],
      [["export", "--agent", "codex", "--out", "../../out/codex.md"], "export", "out"],
      [["render", "-o", "../../gitlink/config"], "--output", "gitlink"],
    ] as const) {
      const out = await cli(root, mine, [...argv]);
      expect([out.code, out.stderr]).toEqual([
        2,
        `sysprompt: ${flag}: ${join(root, "E", link)}: a symbolic link, not a folder: nothing is written through it\n`,
      ]);
    }
    expect(readFileSync(join(mine, "AGENTS.md"), "utf8")).toBe("# my own rules\n");
    expect(readFileSync(join(mine, ".git", "config"), "utf8")).toBe(config);
    expect(existsSync(join(mine, "codex.md"))).toBe(false);
    // Named in your clone, the same file is yours to write.
    const own = await cli(root, mine, ["render", "-o", "AGENTS.md"]);
    expect(own.code).toBe(0);
    expect(readFileSync(join(mine, "AGENTS.md"), "utf8")).toContain("You are a coding agent");
  });

  for (const [kind, eIsRepository] of kinds) {
    it(`E ${kind}: snapshot ../../snapsmine --update through E's link into your clone is refused`, async () => {
      const root = tempDir();
      const { e, mine } = workspace(root, eIsRepository);
      const snaps = join(mine, "snaps");
      mkdirSync(join(snaps, "fx"), { recursive: true });
      writeFileSync(join(snaps, "fx", "AGENTS.md"), "# fx\n");
      writeFileSync(join(snaps, "a.scenario.yaml"), "cwd: fx\n");
      writeFileSync(join(snaps, "a.md"), "golden\n");
      symlinkSync("plugins/mine/snaps", join(e, "snapsmine"));
      mkdirSync(join(root, "home"), { recursive: true });
      const out = await cli(root, mine, ["snapshot", "../../snapsmine", "--update"], {
        pinned: false,
      });
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(`inside ${mine}, a repository of its own that a link in`);
      expect(readFileSync(join(snaps, "a.md"), "utf8")).toBe("golden\n");
      // Named in your clone (from it, or from E by its real folder), it is yours.
      for (const [target, within] of [
        [snaps, mine],
        [snaps, e],
      ] as const) {
        const report = await runSnapshots(target, { within, sandboxDir: join(root, "sandbox") });
        expect(report.counts.drift).toBe(1);
      }
    });
  }

  it("--allow-git-dir named through the checkout's link out of it is refused; the real folder is allowed", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const store = join(root, "home", "work", "private", ".git");
    mkdirSync(store, { recursive: true });
    mkdirSync(project, { recursive: true });
    symlinkSync(store, join(project, "gitstore"));
    writeFileSync(join(project, ".git"), "gitdir: gitstore\n");
    for (const allowGitDirs of [["gitstore"], [join(project, "gitstore")]]) {
      const text = await rendered(pinned(root, { allowGitDirs }));
      expect(text).toMatch(/^refused: --allow-git-dir .*a link there leads out of it/);
      expect(text).toContain(`name the real folder (${store})`);
    }
    const allowed = await rendered(pinned(root, { allowGitDirs: [store] }));
    expect(allowed).not.toMatch(/^refused/);
  });
});
