import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { giveAway, IS_ROOT, NOBODY, put } from "./_nobody.js";

// A repository marker the project-root search passes over (rev60a F1: another
// user's, or one in a folder anyone may write to) took the root's rule files
// and skills away with no word: a clone of yours on a 0777 mount (WSL's
// /mnt/c, vfat, a Windows bind mount), or `sudo sysprompt render` in your own
// clone, where git (safe.directory) counts $SUDO_UID's files as root's own.
// Review rev61c F2: a `root-marker-refused` warning names the folder, the
// reason and the fix; under sudo, $SUDO_UID's marker is yours.
// Review rev64f F1: every root search that passes over a marker says it (the
// skills' and the rule files' too, with --no-context-files no longer silent),
// once per folder, and the warning names what is really left out (the root's
// skills and other agents' rule files) and what is still read (its AGENTS.md,
// as an ancestor's); from the marker's own folder nothing is left out.

const RULE = "ROOT-CURSOR-RULE";
const SKILL = "ROOT-AGENTS-SKILL";
const ROOT_AGENTS = "ROOT-AGENTS-FILE";

/** A clone with an always-on Cursor rule at its root and a subfolder to render from. */
function clone(): { root: string; repo: string; sub: string } {
  const root = tempDir();
  const repo = join(root, "repo");
  put(join(repo, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(repo, ".git/objects"));
  mkdirSync(join(repo, ".git/refs"));
  put(join(repo, ".cursor/rules/r.mdc"), `---\nalwaysApply: true\n---\n${RULE}\n`);
  put(
    join(repo, ".agents/skills/rootskill/SKILL.md"),
    `---\nname: rootskill\ndescription: ${SKILL}\n---\nbody\n`,
  );
  put(join(repo, "AGENTS.md"), `${ROOT_AGENTS}\n`);
  put(join(repo, "sub/AGENTS.md"), "# sub\n");
  return { root, repo, sub: join(repo, "sub") };
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
    expect(said[0]?.message).toContain(`${repo}/.git makes no project root`);
    expect(said[0]?.message).toContain("anyone may write to");
    expect(said[0]?.message).toContain("chmod o-w");
  });

  it("root-marker-refused-names-what-is-lost: one warning, from every search, naming the skills and rule files left out and the AGENTS.md still read", async () => {
    const { root, repo, sub } = clone();
    chmodSync(repo, 0o777);
    const result = await renderSystemPrompt(pinned(root, { cwd: sub }));
    // Measured: the root's AGENTS.md is read (the context chain walks every ancestor), its skill
    // and its Cursor rule are not.
    expect(result.text).toContain(ROOT_AGENTS);
    expect(result.text).not.toContain(SKILL);
    expect(result.text).not.toContain(RULE);
    const said = result.diagnostics.filter((d) => d.code === "root-marker-refused");
    expect(said).toHaveLength(1);
    const message = said[0]?.message ?? "";
    expect(message).toContain("`.agents/skills`");
    expect(message).toContain("rule files");
    expect(message).toContain("`AGENTS.md` and those below are read");
    // Before: "Its rule files and skills are not read as the project's", said of its AGENTS.md too.
    expect(message).not.toContain("Its rule files and skills are not read");
    // The whole message, not cut at the diagnostics' cap.
    expect(message).toMatch(/is refused\)\.$/);
  });

  it("root-marker-refused-no-context-files: with --no-context-files the skills' and rules' own searches say it", async () => {
    const { root, repo, sub } = clone();
    chmodSync(repo, 0o777);
    const result = await renderSystemPrompt(pinned(root, { cwd: sub, noContextFiles: true }));
    expect(result.text).not.toContain(SKILL);
    const said = result.diagnostics.filter((d) => d.code === "root-marker-refused");
    expect(said.map((d) => d.path)).toEqual([repo]);
    expect(said[0]?.message).toContain("`.agents/skills`");
    expect(said[0]?.message).toContain("rule files");
    // No context files read: nothing said of them.
    expect(said[0]?.message).not.toContain("AGENTS.md");
  });

  it("root-marker-refused-nested: a 0777 clone inside your repository is read as your repository's, and the warning says so, no loss named", async () => {
    const { root, repo } = clone();
    const nested = join(repo, "vendor/x");
    put(join(nested, ".git/HEAD"), "ref: refs/heads/main\n");
    mkdirSync(join(nested, ".git/objects"));
    mkdirSync(join(nested, ".git/refs"));
    put(join(nested, "sub/AGENTS.md"), "# nested sub\n");
    chmodSync(nested, 0o777);
    const result = await renderSystemPrompt(pinned(root, { cwd: join(nested, "sub") }));
    // The search went on to your repository: its rule and skill are read.
    expect(result.text).toContain(RULE);
    expect(result.text).toContain(SKILL);
    const said = result.diagnostics.filter((d) => d.code === "root-marker-refused");
    expect(said.map((d) => d.path)).toEqual([nested]);
    expect(said[0]?.message).toContain(`read as files of ${repo}, the project root above it`);
    expect(said[0]?.message).not.toContain("Not read");
  });

  it("root-marker-refused-own-folder: from the marker's own folder nothing is left out, and no warning says so", async () => {
    const { root, repo } = clone();
    chmodSync(repo, 0o777);
    const result = await renderSystemPrompt(pinned(root, { cwd: repo }));
    expect(result.text).toContain(RULE);
    expect(result.text).toContain(SKILL);
    expect(result.text).toContain(ROOT_AGENTS);
    expect(result.diagnostics.filter((d) => d.code === "root-marker-refused")).toEqual([]);
  });

  it("root-marker-refused-on-touch: the files given on touch below a refused marker say it once a session", async () => {
    const { root, repo } = clone();
    chmodSync(repo, 0o777);
    put(join(repo, "docs/x.md"), "IMPORTED-DOC\n");
    put(join(repo, "src/AGENTS.md"), "SRC-AGENTS @../docs/x.md\n");
    put(join(repo, "src/main.c"), "int main;\n");
    const delivered = new Set<string>();
    const home = join(root, "home");
    const first = await loadContextForPaths([join(repo, "src/main.c")], {
      cwd: repo,
      home,
      delivered,
    });
    // Measured: src/AGENTS.md is given, its import into another folder of the clone refused.
    expect(JSON.stringify(first.files)).toContain("SRC-AGENTS");
    expect(JSON.stringify(first.files)).not.toContain("IMPORTED-DOC");
    const said = first.diagnostics.filter((d) => d.code === "root-marker-refused");
    expect(said.map((d) => d.path)).toEqual([repo]);
    expect(said[0]?.message).toContain("each confined to its own folder");
    put(join(repo, "src/other.c"), "int other;\n");
    const again = await loadContextForPaths([join(repo, "src/other.c")], {
      cwd: repo,
      home,
      delivered,
    });
    expect(again.diagnostics.filter((d) => d.code === "root-marker-refused")).toEqual([]);
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
      giveAway(repo);
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
        expect(said[0]?.message).toContain("is another user's");
        expect(said[0]?.message).toContain("safe.directory");
      }
    },
  );

  it.runIf(IS_ROOT)(
    "root-marker-safe-directory: another user's clone your global git config's safe.directory names is your root, as git's; the repository's own config never names it (needs root)",
    async () => {
      const { root, repo, sub } = clone();
      giveAway(repo);
      const home = join(root, "githome");
      mkdirSync(home);
      // The container shape: root over a bind-mounted clone of uid 1000, `safe.directory = *`
      // in the global config (rev64f F2); git takes the repository, and so does the search.
      vi.stubEnv("SUDO_UID", undefined);
      vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
      vi.stubEnv("GIT_CONFIG_GLOBAL", undefined);
      vi.stubEnv("XDG_CONFIG_HOME", undefined);
      vi.stubEnv("HOME", home);
      const render = () => renderSystemPrompt(pinned(root, { cwd: sub }));
      for (const named of ["*", repo, `${root}/*`]) {
        writeFileSync(join(home, ".gitconfig"), `[safe]\n\tdirectory = ${named}\n`);
        const taken = await render();
        expect([named, taken.text.includes(RULE), taken.text.includes(SKILL)]).toEqual([
          named,
          true,
          true,
        ]);
        expect(taken.diagnostics.filter((d) => d.code === "root-marker-refused")).toEqual([]);
      }
      // Cleared by an empty value, or named only in the repository's own config: refused, said.
      writeFileSync(join(home, ".gitconfig"), "[safe]\n\tdirectory = *\n\tdirectory =\n");
      put(join(repo, ".git/config"), "[safe]\n\tdirectory = *\n");
      const refused = await render();
      expect(refused.text).not.toContain(RULE);
      const said = refused.diagnostics.filter((d) => d.code === "root-marker-refused");
      expect(said.map((d) => d.path)).toEqual([repo]);
      expect(said[0]?.message).toContain("no `safe.directory` of your system or global git config");
      // A "global" config that lies in the checkout (HOME inside it) is the repository's.
      writeFileSync(join(repo, ".gitconfig"), "[safe]\n\tdirectory = *\n");
      vi.stubEnv("HOME", repo);
      expect((await render()).text).not.toContain(RULE);
    },
  );
});
