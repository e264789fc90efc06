import { chmodSync, lchownSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A repository marker the project-root search passes over (rev60a F1: another
// user's, or one in a folder anyone may write to) took the root's rule files
// and skills away with no word: a clone of yours on a 0777 mount (WSL's
// /mnt/c, vfat, a Windows bind mount), or `sudo sysprompt render` in your own
// clone, where git (safe.directory) counts $SUDO_UID's files as root's own.
// Review rev61c F2: a `root-marker-refused` warning names the folder, the
// reason and the fix; under sudo, $SUDO_UID's marker is yours.

const IS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;
const RULE = "ROOT-CURSOR-RULE";

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A clone with an always-on Cursor rule at its root and a subfolder to render from. */
function clone(): { root: string; repo: string; sub: string } {
  const root = tempDir();
  const repo = join(root, "repo");
  put(join(repo, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(repo, ".git/objects"));
  mkdirSync(join(repo, ".git/refs"));
  put(join(repo, ".cursor/rules/r.mdc"), `---\nalwaysApply: true\n---\n${RULE}\n`);
  put(join(repo, "sub/AGENTS.md"), "# sub\n");
  return { root, repo, sub: join(repo, "sub") };
}

function chownTree(path: string, uid: number) {
  lchownSync(path, uid, uid);
  let entries: string[] = [];
  try {
    entries = readdirSync(path);
  } catch {
    return;
  }
  for (const name of entries) chownTree(join(path, name), uid);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("catalogue: a repository marker passed over is said, never silently lost", () => {
  it("root-marker-refused-0777-clone: a clone of yours whose top folder is 0777 warns, naming the folder, the reason and the fix", async () => {
    const { root, repo, sub } = clone();
    chmodSync(repo, 0o777);
    const result = await renderSystemPrompt(pinned(root, { cwd: sub }));
    // Decided (docs/trust.md): a world-writable folder's marker is still no root.
    expect(result.text).not.toContain(RULE);
    expect(result.text).toContain("# sub");
    const said = result.diagnostics.filter((d) => d.code === "root-marker-refused");
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: "warning", path: repo });
    expect(said[0]?.message).toContain(`${repo}/.git does not make ${repo} a project root`);
    expect(said[0]?.message).toContain("anyone may write to");
    expect(said[0]?.message).toContain("chmod o-w");
  });

  it("root-marker-kept-0755-clone: the same clone at 0755 has its rule and no warning", async () => {
    const { root, sub } = clone();
    const result = await renderSystemPrompt(pinned(root, { cwd: sub }));
    expect(result.text).toContain(RULE);
    expect(result.diagnostics.filter((d) => d.code === "root-marker-refused")).toEqual([]);
  });

  it.runIf(IS_ROOT)(
    "root-marker-sudo-uid: as root with $SUDO_UID, that user's clone keeps its root, as git's (needs root)",
    async () => {
      const { root, repo, sub } = clone();
      chownTree(repo, NOBODY);
      vi.stubEnv("SUDO_UID", String(NOBODY));
      const mine = await renderSystemPrompt(pinned(root, { cwd: sub }));
      expect(mine.text).toContain(RULE);
      expect(mine.diagnostics.filter((d) => d.code === "root-marker-refused")).toEqual([]);
      // Another $SUDO_UID, or none: the clone is another user's, passed over, and said.
      for (const sudo of [String(NOBODY - 1), undefined]) {
        vi.stubEnv("SUDO_UID", sudo);
        const other = await renderSystemPrompt(pinned(root, { cwd: sub }));
        expect(other.text).not.toContain(RULE);
        const said = other.diagnostics.filter((d) => d.code === "root-marker-refused");
        expect(said.map((d) => d.path)).toEqual([repo]);
        expect(said[0]?.message).toContain("belongs to another user");
      }
    },
  );
});
