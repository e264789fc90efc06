import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { simulatePrompt } from "../../src/author/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `explain --simulate --tree` renders a copy of the project whose `.git` was
// an empty folder git does not take, so the copy's tree found no repository
// and read no exclude file: it listed `MY-EXCLUDED.txt`, which the real tree
// hides (your `.git/info/exclude` names it), trusted or not, and a folder your
// lists name (`myprivate/` in a submodule's exclude file, `/notes/` in your
// global excludes anchored at the submodule's top), whose files alone were
// named in the copy's exclude file: every figure counted names the real
// prompt never holds (review priv48, low). The copy's `.git` is now one git
// takes where the real one is, and a folder your lists name is named as one.

const SLOW = 120_000;

afterEach(() => {
  vi.unstubAllEnvs();
});

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** A `.git` folder git takes for one, its exclude file naming `excluded`. */
function gitFolder(dir: string, excluded: string): void {
  for (const d of ["info", "objects", "refs"]) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, "info", "exclude"), excluded);
}

/** `<root>/project`, a git project with names each of your lists hides, and `sub/` a submodule. */
function project(): { root: string; dir: string } {
  const root = tempDir();
  const dir = join(root, "project");
  gitFolder(join(dir, ".git"), "MY-EXCLUDED.txt\n");
  write(join(root, "home", ".config", "git", "ignore"), "MY-GLOBAL.txt\n/notes/\n");
  write(join(dir, "AGENTS.md"), "# Project\n");
  write(join(dir, "src", "main.ts"), "export {};\n");
  write(join(dir, "MY-EXCLUDED.txt"), "x\n");
  write(join(dir, "MY-GLOBAL.txt"), "x\n");
  gitFolder(join(dir, ".git", "modules", "sub"), "myprivate/\n");
  write(join(dir, "sub", ".git"), "gitdir: ../.git/modules/sub\n");
  write(join(dir, "sub", "README.md"), "r\n");
  write(join(dir, "sub", "myprivate", "client-acme.md"), "x\n");
  write(join(dir, "sub", "notes", "standup.md"), "x\n");
  return { root, dir };
}

/** The simulation's baseline and the tree of the real render of the same options, in place. */
async function both(root: string, dir: string, trusted: boolean) {
  vi.stubEnv("XDG_CONFIG_HOME", "");
  const options = pinned(root, { projectTrusted: trusted, workspaceTree: true });
  const report = await simulatePrompt(options, { sandboxDir: join(root, "sandboxes") });
  const inPlace = await renderSystemPrompt({ ...options, ceilingDir: dir });
  const text = inPlace.text;
  const tree = text.slice(text.indexOf("\nproject/\n"), text.indexOf("</workspace_tree>"));
  return { report, inPlace, tree };
}

const TREE_NAMES = ["project/", "AGENTS.md", "src/", "main.ts", "sub/", "README.md"];

describe("explain --simulate --tree lists what the real tree lists", () => {
  for (const trusted of [false, true]) {
    it(
      `${trusted ? "trusted" : "--untrusted"}: no name your exclude files or global excludes hide, the same bytes as in place`,
      async () => {
        const { root, dir } = project();
        const { report, inPlace, tree } = await both(root, dir, trusted);
        const names = tree
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => l.trim().split(/\s+/)[0])
          .sort();
        expect(names).toEqual([...TREE_NAMES].sort());
        expect(report.baseline.bytes).toBe(Buffer.byteLength(inPlace.text, "utf8"));
      },
      SLOW,
    );
  }
});

// The tree sets aside a list of yours that names the folder it starts in (you
// work there); a folder holding the working folder is therefore never named
// as a folder in the copy's exclude file, where it would set the whole file
// aside and the copy's tree would list a file your exclude file names.
describe("explain --simulate --tree from inside a folder your global excludes name", () => {
  it(
    "the copy's tree says no more than the real one: your excluded file there stays unlisted",
    async () => {
      const { root, dir } = project();
      write(join(root, "home", ".config", "git", "ignore"), "/mine/\n");
      write(join(dir, "mine", "MY-EXCLUDED.txt"), "x\n");
      write(join(dir, "mine", "plan.md"), "x\n");
      vi.stubEnv("XDG_CONFIG_HOME", "");
      const options = pinned(root, {
        cwd: join(dir, "mine"),
        projectTrusted: false,
        workspaceTree: true,
      });
      const report = await simulatePrompt(options, { sandboxDir: join(root, "sandboxes") });
      const inPlace = await renderSystemPrompt({ ...options, ceilingDir: dir });
      const real = inPlace.sections.find((s) => s.name === "workspace_tree")?.text ?? "";
      expect(real).toContain("plan.md");
      expect(real).not.toContain("MY-EXCLUDED.txt");
      const copied = report.baseline.sections.find((s) => s.name === "workspace_tree");
      // Known limit: the copy's tree also hides plan.md, named for your global list.
      expect(copied?.bytes).toBeLessThanOrEqual(Buffer.byteLength(real, "utf8"));
    },
    SLOW,
  );
});
