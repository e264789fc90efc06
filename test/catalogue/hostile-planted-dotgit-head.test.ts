import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { holdsUsableGit } from "../../src/repo-files/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev47a F4 (issue 24): holdsUsableGit took a `.git` folder for a repository by the kinds
// of its entries alone: a `HEAD` of any bytes beside a `commondir` of any bytes (even empty), or
// a garbage `HEAD` beside empty `objects/` and `refs/`. git passes over both (its setup.c
// is_git_directory wants a `HEAD` naming `refs/…` or an object id, and `objects/` and `refs/`
// here or where `commondir` says), so the workspace around still ignores the folder's files,
// yet `--untrusted` read the workspace's ignored file through the folder's `@` import. Now a
// `.git` counts where git would use it, as docs/trust.md says: each shape is checked against the
// git binary itself (`git rev-parse --git-dir`, not climbing past the folder).

const SECRET = "SECRET-MARKER-IGNORED";

const HEAD = (text: string) => (git: string) => {
  mkdirSync(join(git, "objects"), { recursive: true });
  mkdirSync(join(git, "refs"));
  writeFileSync(join(git, "HEAD"), text);
};

/** `.git` folder shapes, and whether git uses each. */
const SHAPES: [string, boolean, (git: string) => void][] = [
  ["HEAD garbage, objects/ and refs/", false, HEAD("garbage\n")],
  [
    "HEAD garbage, an empty commondir",
    false,
    (git) => {
      mkdirSync(git);
      writeFileSync(join(git, "HEAD"), "garbage\n");
      writeFileSync(join(git, "commondir"), "");
    },
  ],
  [
    "HEAD a ref, an empty commondir",
    false,
    (git) => {
      mkdirSync(git);
      writeFileSync(join(git, "HEAD"), "ref: refs/heads/main\n");
      writeFileSync(join(git, "commondir"), "");
    },
  ],
  [
    "HEAD a ref, commondir naming an empty folder",
    false,
    (git) => {
      mkdirSync(join(git, "common"), { recursive: true });
      writeFileSync(join(git, "HEAD"), "ref: refs/heads/main\n");
      writeFileSync(join(git, "commondir"), "common\n");
    },
  ],
  ["HEAD `ref: heads/main`", false, HEAD("ref: heads/main\n")],
  ["HEAD 39 hex digits", false, HEAD(`${"a".repeat(39)}\n`)],
  ["HEAD empty", false, HEAD("")],
  [
    "HEAD a link to heads/main",
    false,
    (git) => {
      mkdirSync(join(git, "objects"), { recursive: true });
      mkdirSync(join(git, "refs"));
      symlinkSync("heads/main", join(git, "HEAD"));
    },
  ],
  ["HEAD a ref, objects/ and refs/", true, HEAD("ref: refs/heads/main\n")],
  ["HEAD `ref:\\t refs/x`", true, HEAD("ref:\t refs/x")],
  ["HEAD an object id", true, HEAD(`${"0123456789abcdef".repeat(3).slice(0, 40)}\n`)],
  [
    "HEAD a link to refs/heads/main",
    true,
    (git) => {
      mkdirSync(join(git, "objects"), { recursive: true });
      mkdirSync(join(git, "refs"));
      symlinkSync("refs/heads/main", join(git, "HEAD"));
    },
  ],
  [
    "HEAD a ref, commondir naming a folder with objects/ and refs/",
    true,
    (git) => {
      mkdirSync(join(git, "common", "objects"), { recursive: true });
      mkdirSync(join(git, "common", "refs"));
      writeFileSync(join(git, "HEAD"), "ref: refs/heads/main\n");
      writeFileSync(join(git, "commondir"), "common\n");
    },
  ],
];

/** Whether the git binary, started in `dir` and kept from climbing above it, finds a repository. */
function gitUses(dir: string): boolean {
  const r = spawnSync("git", ["rev-parse", "--git-dir"], {
    cwd: dir,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CEILING_DIRECTORIES: dirname(dir),
    },
  });
  if (r.error) throw r.error;
  return r.status === 0;
}

/** rev46 F1's layout: W (git) ignores `vendor/t/secret.txt`; t's AGENTS.md imports it. */
function layout(make: (git: string) => void) {
  const root = tempDir();
  const w = join(root, "W");
  const t = join(w, "vendor", "t");
  HEAD("ref: refs/heads/main\n")(join(w, ".git"));
  mkdirSync(t, { recursive: true });
  writeFileSync(join(w, ".gitignore"), "vendor/t/secret.txt\n");
  writeFileSync(join(t, "AGENTS.md"), "T-MARKER\n@secret.txt\n");
  writeFileSync(join(t, "secret.txt"), `${SECRET}\n`);
  make(join(t, ".git"));
  return { root, t };
}

describe("hostile-planted-dotgit-head: a .git counts as a repository only where git would use it", () => {
  it.each(SHAPES)("%s: git uses it: %s; so does holdsUsableGit", async (_shape, uses, make) => {
    const { t } = layout(make);
    expect(gitUses(t), "the git binary").toBe(uses);
    expect(await holdsUsableGit(t)).toBe(uses);
  });

  it.each(SHAPES.filter(([, uses]) => !uses).slice(0, 2))(
    "%s: --untrusted from the folder reads nothing the workspace ignores",
    async (_shape, _uses, make) => {
      const { root, t } = layout(make);
      const r = await renderSystemPrompt(pinned(root, { cwd: t, projectTrusted: false }));
      const text = [r.text, ...r.diagnostics.map((d) => `${d.code}: ${d.message}`)].join("\n");
      expect(text).toContain("T-MARKER");
      expect(text).not.toContain(SECRET);
      expect(text).toMatch(/import-private: @secret\.txt/);
    },
  );
});
