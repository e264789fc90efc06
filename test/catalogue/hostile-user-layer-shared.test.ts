import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { loadSkills } from "../../src/skills/index.js";
import type { Diagnostic } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { giveAway, IS_ROOT, NOBODY, put, sharedFolder } from "./_nobody.js";

// Files you name as yours, read from another user's folder or a shared one
// (review rev77d F2): an `--agent-dir` below a 0777 share whose AGENTS.md and
// sections/rules.md another user owns, a `$SYSPROMPT_AGENT_DIR` another user
// made in sticky /tmp, and an `--append-system-prompt` file of his. Each was
// read as your user layer: his AGENTS.md printed as `<user_instructions>`,
// which the prompt ranks above the repository, his section in place of the
// rules, his notes appended as your text. The agent dir and a file you name
// are now walked from `/` down as the PATH search walks an entry
// (`sharedOnTheWay` with `owners`). The cases play the other user (uid
// 65534) by handing him the entries, so they need root.

const MARK = "OTHER-USER-MARKER";

/** A case's root with a project of yours in your home folder. */
function world() {
  const root = tempDir();
  const home = join(root, "home");
  const proj = join(home, "proj");
  put(join(proj, "AGENTS.md"), "# the repository\n");
  mkdirSync(join(proj, ".git"));
  return { root, home, proj };
}

/** An agent dir `dir` with an AGENTS.md and a rules section, every entry given to `nobody` when `theirs`. */
function agentDir(dir: string, theirs: boolean) {
  put(join(dir, "AGENTS.md"), `AGENTS-${MARK}\n`);
  put(join(dir, "sections/rules.md"), `---\norder: 1\n---\nSECTION-${MARK}\n`);
  if (theirs) giveAway(dir);
}

const shared = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((d) => d.code === "agent-dir-shared");

describe.runIf(IS_ROOT && process.platform === "linux")(
  "catalogue: a user layer another user could fill is not read as yours (review rev77d F2)",
  () => {
    for (const projectTrusted of [true, false]) {
      it(`agent-dir-below-0777-share (${projectTrusted ? "trusted" : "untrusted"}): his AGENTS.md and section are left out, with a warning naming the folder`, async () => {
        const { root, proj, home } = world();
        const share = sharedFolder(root, "share", 0o777);
        const dir = join(share, "agent");
        agentDir(dir, true);
        const result = await renderSystemPrompt({
          ...pinned(root, { cwd: proj, agentDir: dir, home }),
          projectTrusted,
        });
        expect(result.text).not.toContain(MARK);
        expect(result.text).toContain("the repository");
        const [warning, ...more] = shared(result.diagnostics);
        expect(more).toEqual([]);
        expect(warning?.path).toBe(dir);
        expect(warning?.message).toContain(`${share}: writable by other users (mode 0777`);
      });
    }

    it("skills-of-agent-dir-below-0777-share: loadSkills leaves its skills out, with the same warning", async () => {
      const { root, proj, home } = world();
      const dir = join(sharedFolder(root, "share", 0o777), "agent");
      put(
        join(dir, "skills/evil/SKILL.md"),
        `---\nname: evil\ndescription: SKILL-${MARK}\n---\nbody\n`,
      );
      giveAway(dir);
      const skills = await loadSkills({ cwd: proj, home, agentDir: dir });
      expect(skills.skills.map((s) => s.name)).not.toContain("evil");
      expect(shared(skills.diagnostics).map((d) => d.path)).toEqual([dir]);
    });

    it("env-agent-dir-of-another-user-in-sticky-folder: $SYSPROMPT_AGENT_DIR his folder in a 1777 one is not read", async () => {
      const { root, proj, home } = world();
      const tmp = sharedFolder(root, "tmp", 0o1777);
      const dir = join(tmp, "agent-of-other");
      agentDir(dir, true);
      const options = pinned(root, { cwd: proj, home, env: { SYSPROMPT_AGENT_DIR: dir } });
      delete options.agentDir;
      const result = await renderSystemPrompt(options);
      expect(result.text).not.toContain(MARK);
      const [warning] = shared(result.diagnostics);
      expect(warning?.message).toContain(`${dir}: another user's (uid ${NOBODY})`);
    });

    it("agent-dir-of-yours-in-sticky-folder: your own agent dir in a 1777 folder is still read", async () => {
      const { root, proj, home } = world();
      const tmp = sharedFolder(root, "tmp", 0o1777);
      const dir = join(tmp, "agent");
      agentDir(dir, false);
      const result = await renderSystemPrompt(pinned(root, { cwd: proj, agentDir: dir, home }));
      expect(result.text).toContain(`AGENTS-${MARK}`);
      expect(result.text).toContain(`SECTION-${MARK}`);
      expect(shared(result.diagnostics)).toEqual([]);
    });

    it("sudo-user-agent-dir: under sudo, the agent dir and notes of the user who ran it are his own, still read", async () => {
      const { root, proj, home } = world();
      const tmp = sharedFolder(root, "tmp", 0o1777);
      const dir = join(tmp, "agent-of-sudo-user");
      agentDir(dir, true);
      put(join(tmp, "notes/notes.md"), `NOTES-${MARK}\n`);
      giveAway(join(tmp, "notes"));
      const before = process.env.SUDO_UID;
      process.env.SUDO_UID = String(NOBODY);
      try {
        const result = await renderSystemPrompt(
          pinned(root, {
            cwd: proj,
            agentDir: dir,
            home,
            appendSystemPrompt: join(tmp, "notes/notes.md"),
          }),
        );
        expect(result.text).toContain(`AGENTS-${MARK}`);
        expect(result.text).toContain(`NOTES-${MARK}`);
        expect(shared(result.diagnostics)).toEqual([]);
      } finally {
        if (before === undefined) delete process.env.SUDO_UID;
        else process.env.SUDO_UID = before;
      }
    });

    for (const flag of ["appendSystemPrompt", "systemPrompt"] as const) {
      it(`${flag}-file-of-another-user: refused as a bad argument naming the path and the owner`, async () => {
        const { root, proj, home } = world();
        const tmp = sharedFolder(root, "tmp", 0o1777);
        put(join(tmp, "notes/notes.md"), `NOTES-${MARK}\n`);
        giveAway(join(tmp, "notes"));
        // His file in a folder of yours too: he may write it whatever its mode.
        put(join(root, "mine/his.md"), `HIS-${MARK}\n`);
        giveAway(join(root, "mine/his.md"));
        for (const [path, said] of [
          [join(tmp, "notes/notes.md"), `${join(tmp, "notes")}: another user's (uid ${NOBODY})`],
          [join(root, "mine/his.md"), `${join(root, "mine/his.md")}: owned by another user`],
        ] as const) {
          const render = renderSystemPrompt(pinned(root, { cwd: proj, home, [flag]: path }));
          await expect(render).rejects.toMatchObject({ code: "bad-argument" });
          await expect(render).rejects.toThrow(said);
        }
        put(join(root, "mine/own.md"), `OWN-${MARK}\n`);
        const own = join(root, "mine/own.md");
        const result = await renderSystemPrompt(pinned(root, { cwd: proj, home, [flag]: own }));
        expect(result.text).toContain(`OWN-${MARK}`);
      });
    }
  },
);
