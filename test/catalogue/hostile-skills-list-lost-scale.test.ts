import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadSkills } from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "../cli/_run.js";
import { denseFile, denseParseMs } from "./_dense-yaml.js";

// `sysprompt list` and `expand` read skills, slash-command templates and rule
// files each within a render's default deadline. Templates and rules kept
// what the user's own folders gave when the repository's part was cut; the
// skills loader was given nothing to keep, so a repository whose skills took
// it past the deadline took the user's skills with it: `list` showed
// "Skills (none)" and `expand "/skill:myskill go"` exited 2 (review rev45b F7:
// 100 skills of dense frontmatter on a loaded machine). Here the deadline is
// 500 ms, and the repository's skills take at least three of them. The
// library's loadSkills() without a signal did the same past its own 5 s: a
// skills root that answers after 5.5 s stands for that repository there.

// Hoisted with the mock below, which runs before this file's imports.
const { DEADLINE_MS } = vi.hoisted(() => ({ DEADLINE_MS: 500 }));

vi.mock("../../src/gather/deadline.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/gather/deadline.js")>()),
  DEFAULT_DEADLINE_MS: DEADLINE_MS,
}));

/** The skills root of a project folder named `slow` answers after the loader's default deadline. */
vi.mock("../../src/skills/_walk.js", async (importOriginal) => {
  const walk = await importOriginal<typeof import("../../src/skills/_walk.js")>();
  return {
    ...walk,
    walkSkillsRoot: async (...args: Parameters<typeof walk.walkSkillsRoot>) => {
      if (args[0].includes("/slow/")) await new Promise((done) => setTimeout(done, 5_500));
      return walk.walkSkillsRoot(...args);
    },
  };
});

function fixture() {
  const root = tempDir();
  const project = join(root, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  const mine = join(root, "agent", "skills", "myskill");
  mkdirSync(mine, { recursive: true });
  writeFileSync(
    join(mine, "SKILL.md"),
    "---\nname: myskill\ndescription: my skill\n---\nMY SKILL\n",
  );
  const count = Math.min(500, Math.ceil((3 * DEADLINE_MS) / Math.max(denseParseMs(), 20)));
  for (let i = 0; i < count; i++) {
    const dir = join(project, ".pi", "skills", `s${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "SKILL.md"), denseFile(`name: s${i}\ndescription: d${i}\n`, "Go."));
  }
  return root;
}

const CUT = new RegExp(
  `^warning \\[load-deadline\\] stopped reading the skills at the ${DEADLINE_MS} ms deadline; the rest are left out$`,
  "m",
);

describe("hostile repository: skills slow enough to cut list and expand", () => {
  it("list keeps your own skill and says the rest were cut", async () => {
    const root = fixture();
    const { code, stdout, stderr } = await cli(
      root,
      ["list", "--agent-dir", join(root, "agent")],
      false,
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(CUT);
    expect(stdout).toMatch(/^ {2}myskill {2}my skill {2}user /m);
  }, 60_000);

  it('expand "/skill:myskill" still expands your skill', async () => {
    const root = fixture();
    const { code, stdout, stderr } = await cli(
      root,
      ["expand", "--agent-dir", join(root, "agent"), "/skill:myskill go"],
      false,
    );
    expect(stderr).toMatch(CUT);
    expect(code).toBe(0);
    expect(stdout).toContain('<skill name="myskill"');
    expect(stdout).toContain("MY SKILL");
  }, 60_000);

  it("loadSkills() past its default deadline keeps your own skill", async () => {
    const root = tempDir();
    const mine = join(root, "agent", "skills", "myskill");
    mkdirSync(mine, { recursive: true });
    writeFileSync(
      join(mine, "SKILL.md"),
      "---\nname: myskill\ndescription: my skill\n---\nMY SKILL\n",
    );
    const theirs = join(root, "slow", ".pi", "skills", "theirs");
    mkdirSync(theirs, { recursive: true });
    writeFileSync(join(theirs, "SKILL.md"), "---\nname: theirs\ndescription: theirs\n---\nT\n");
    mkdirSync(join(root, "slow", ".git"));
    const loaded = await loadSkills({
      cwd: join(root, "slow"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
    });
    expect(loaded.diagnostics.map((d) => d.code)).toContain("load-deadline");
    expect(loaded.skills.map((s) => s.name)).toEqual(["myskill"]);
  }, 60_000);
});
