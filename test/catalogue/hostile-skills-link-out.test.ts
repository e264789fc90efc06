import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSkills } from "../../src/skills/index.js";
import { tempDir } from "../api/_helpers.js";

// A sub-folder of a project's skills root that is a link out of the project
// (to /usr, to /) was walked: the door refused every SKILL.md found there,
// but only after the walk had listed up to its 5,000 folders (skills-walk-
// limit), on every render. The root itself was already refused when it
// leads out; a sub-folder now is too, before it is listed, as the `.pi`
// layer refuses its links out: one skills-link-outside warning counts them.
// A link to a folder inside the project is still followed.

const SKILL = (name: string) =>
  `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name}.\n`;

describe("hostile repository: a skills sub-folder linked out of the project", () => {
  it("is not walked, with one warning; a link inside the project still is", async () => {
    const base = tempDir();
    const project = join(base, "project");
    const skills = join(project, ".pi", "skills");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(skills, "alpha"), { recursive: true });
    writeFileSync(join(skills, "alpha", "SKILL.md"), SKILL("alpha"));
    mkdirSync(join(project, "shared", "beta"), { recursive: true });
    writeFileSync(join(project, "shared", "beta", "SKILL.md"), SKILL("beta"));
    symlinkSync("../../shared", join(skills, "shared"));
    // Out of the project: a tree of folders (a stand-in for /usr), and a skill in it.
    const usr = join(base, "usr");
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 20; j++) mkdirSync(join(usr, `d${i}`, `e${j}`), { recursive: true });
    }
    mkdirSync(join(usr, "zz", "gamma"), { recursive: true });
    writeFileSync(join(usr, "zz", "gamma", "SKILL.md"), SKILL("gamma"));
    symlinkSync(usr, join(skills, "usr"));
    symlinkSync(usr, join(skills, "usr2"));

    const home = join(base, "home");
    mkdirSync(home);
    const result = await loadSkills({
      cwd: project,
      home,
      agentDir: join(base, "agent"),
      env: {},
    });
    expect(result.skills.map((s) => s.name)).toEqual(["alpha", "beta"]);
    expect(result.diagnostics).toEqual([
      {
        level: "warning",
        code: "skills-link-outside",
        message: `not searched for skills: it resolves to ${usr}, outside the project root ${project}; 1 more folder(s) of this skills root lead out too`,
        path: join(skills, "usr"),
      },
    ]);
  });
});
