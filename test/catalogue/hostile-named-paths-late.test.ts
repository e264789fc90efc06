import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadPromptTemplates, loadSkills } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// rev46b F5: past a cut, the skills and templates loaders keep what the user's own folders gave
// (`soFar`), but only the default ones: a skill folder named in `skillPaths` (`~/myskills`) was
// walked after `soFar` was set, and a template folder named in `paths` (`~/mytpls`) came after the
// project's `.pi/prompts` in the plan. A repository whose skills or templates made the load late
// took them along (150 dense skills, `deadlineMs: 400`: the `skillPaths` skill was not listed).
// The paths named out of the project are now read with the user's folders, before the project's;
// a path named into the project stays the project's, read after its folder and cut with it.

/** The project's files take as long as the test wants: until `release()`. */
const hold = vi.hoisted(() => {
  let release: () => void = () => undefined;
  let reached: () => void = () => undefined;
  const state = {
    released: Promise.resolve(),
    reached: Promise.resolve(),
    release: () => release(),
    reach: () => reached(),
    reset() {
      state.released = new Promise<void>((done) => {
        release = done;
      });
      state.reached = new Promise<void>((done) => {
        reached = done;
      });
    },
  };
  return state;
});

vi.mock("../../src/repo-files/index.js", async (importOriginal) => {
  const files = await importOriginal<typeof import("../../src/repo-files/index.js")>();
  const held = async (paths: readonly string[]) => {
    if (paths.some((p) => p.includes("/project/"))) {
      hold.reach();
      await hold.released;
    }
  };
  return {
    ...files,
    readRepoText: async (...args: Parameters<typeof files.readRepoText>) => {
      await held([args[0]]);
      return files.readRepoText(...args);
    },
    readRepoTexts: async (...args: Parameters<typeof files.readRepoTexts>) => {
      await held(args[0]);
      return files.readRepoTexts(...args);
    },
  };
});

function fixture() {
  const root = tempDir();
  const skill = (name: string) => `---\nname: ${name}\ndescription: ${name} skill\n---\nbody\n`;
  const template = (name: string) => `---\ndescription: ${name}\n---\nDo it.\n`;
  const files: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "home/.pi/agent/skills/mine/SKILL.md": skill("mine"),
    "home/myskills/named/SKILL.md": skill("named"),
    "project/.pi/skills/theirs/SKILL.md": skill("theirs"),
    "project/tools/skills/inproject/SKILL.md": skill("inproject"),
    "home/.pi/agent/prompts/mine.md": template("mine"),
    "home/mytpls/named.md": template("named"),
    "project/.pi/prompts/theirs.md": template("theirs"),
    "project/tools/prompts/inproject.md": template("inproject"),
  };
  writeFiles(root, files);
  return {
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
  };
}

describe("hostile repository: a late load keeps the folders you named out of the project", () => {
  it("loadSkills: a skillPaths folder of yours is in soFar before the project's skills are read", async () => {
    hold.reset();
    const soFar: { value?: Awaited<ReturnType<typeof loadSkills>> } = {};
    const controller = new AbortController();
    const load = loadSkills({
      ...fixture(),
      paths: ["~/myskills", "tools/skills"],
      signal: controller.signal,
      soFar,
    });
    try {
      await hold.reached;
      // What a render cut here keeps: your two folders, not the one named into the project.
      expect(soFar.value?.skills.map((s) => s.name).sort()).toEqual(["mine", "named"]);
    } finally {
      hold.release();
      await load.catch(() => undefined);
    }
    const full = await load;
    expect(full.skills.map((s) => s.name).sort()).toEqual(["inproject", "mine", "named", "theirs"]);
    expect(full.skills.find((s) => s.name === "inproject")?.source).toBe("project");
  });

  it("loadPromptTemplates: a paths folder of yours is in soFar before the project's templates are read", async () => {
    hold.reset();
    const soFar: { value?: Awaited<ReturnType<typeof loadPromptTemplates>> } = {};
    const controller = new AbortController();
    const load = loadPromptTemplates({
      ...fixture(),
      paths: ["tools/prompts", "~/mytpls"],
      signal: controller.signal,
      soFar,
    });
    try {
      await hold.reached;
      expect(soFar.value?.templates.map((t) => t.name)).toEqual(["mine", "named"]);
    } finally {
      hold.release();
      await load.catch(() => undefined);
    }
    const full = await load;
    expect(full.templates.map((t) => t.name)).toEqual(["inproject", "mine", "named", "theirs"]);
  });
});
