import { linkSync, mkdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readScenario } from "../../src/author/snapshot/_scenario.js";
import { loadConfigFiles } from "../../src/config/load.js";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/load.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import {
  NO_DEADLINE,
  namesRefusal,
  plantedCheck,
  projectReach,
  projectReachSync,
  readFileNoFollow,
  readRepoCapped,
  readRepoText,
  readRepoTextSync,
  readRepoTexts,
  readRepoTextsSync,
} from "../../src/repo-files/index.js";
import { readRepoBytes } from "../../src/repo-files/read.js";
import { expandSkillCommand } from "../../src/skills/expand.js";
import { loadSkills } from "../../src/skills/load.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { git } from "../gather/_git.js";

// The decided behaviour for hard links (docs/trust.md, "Hard links"; decided, review
// rev96a F1): a repository's file with more than one name is refused by the door,
// trusted or not. Its other names cannot be seen, so it may be any file of yours (a
// tarball unpacked by Python's tarfile links `proj/notes.md` to `~/.ssh/id_rsa`), and git
// never makes one in a work tree. The rule is one function (`namesRefusal`), part of the
// door's open-then-check (`openedRefusal`) that every reader passes: each reader is
// proved here. Your own files (no reach: the agent dir, a file you name out of the
// project) are read whatever their links.

const SECRET = "MARKER-SECRET-KEY";

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A root holding `home` (with ~/.ssh/id_rsa) and `repo` (a git root). */
function world() {
  const root = realpathSync(tempDir());
  const home = join(root, "home");
  const repo = join(root, "repo");
  put(join(home, ".ssh/id_rsa"), `${SECRET}\n`);
  mkdirSync(join(repo, ".git"), { recursive: true });
  /** `path` made one more name of `target` (default: your key). */
  const link = (path: string, target = join(home, ".ssh/id_rsa")) => {
    mkdirSync(dirname(path), { recursive: true });
    linkSync(target, path);
  };
  return { root, home, repo, link };
}

const names = (path: string) => statSync(path).nlink;
const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);

describe("hard links: the door refuses a repository's file with more than one name", () => {
  it("states the rule once: how many names, and how to make it a file of its own", () => {
    expect(namesRefusal({ nlink: 1 }, "/p/AGENTS.md")).toBeUndefined();
    expect(namesRefusal({ nlink: 3 }, "/p/notes.md")).toEqual({
      reason: "outside",
      code: "file-outside-project",
      message:
        "it has 3 names (hard links to one file), and its other names may lie anywhere, your home folder too, so it may be any file of yours; git never makes one in a work tree; to keep it, make it a file of its own in its folder: cp notes.md notes.md.tmp && mv notes.md.tmp notes.md",
    });
    // A name no shell takes as it is, quoted; one that starts with `-`, not taken for a flag.
    expect(namesRefusal({ nlink: 2 }, "/p/it's a.md")?.message).toMatch(
      /: cp 'it'\\''s a\.md' 'it'\\''s a\.md'\.tmp && mv 'it'\\''s a\.md'\.tmp 'it'\\''s a\.md'$/,
    );
    expect(namesRefusal({ nlink: 2 }, "/p/-x.md")?.message).toMatch(
      /: cp \.\/-x\.md \.\/-x\.md\.tmp && mv \.\/-x\.md\.tmp \.\/-x\.md$/,
    );
  });

  for (const trusted of [true, false]) {
    it(`every door read refuses it, at its path (${trusted ? "trusted" : "untrusted"})`, async () => {
      const { home, repo, link } = world();
      const file = join(repo, "notes.md");
      link(file);
      const reach = await projectReach({ signal: NO_DEADLINE, start: repo, home, trusted });
      const syncReach = projectReachSync({ start: repo, home });
      const reads = [
        await readRepoText(file, { reach }),
        await readRepoCapped(file, { reach, maxBytes: 1000 }),
        await readRepoBytes(file, { reach, maxBytes: 1000 }),
        (await readRepoTexts([file], { reach }, 1000)).reads[0],
        readRepoTextSync(file, { reach: syncReach }),
        readRepoTextsSync([file], { reach: syncReach }, 1000).reads[0],
      ];
      for (const read of reads) {
        expect(read).toEqual({
          ok: false,
          reason: "refused",
          refusal: namesRefusal({ nlink: 2 }, file),
          diagnostics: [
            {
              level: "warning",
              code: "file-outside-project",
              message: `not read: ${namesRefusal({ nlink: 2 }, file)?.message}`,
              path: file,
            },
          ],
        });
      }
    });
  }

  it("the strict read (goldens, scenarios, a project's sysprompt.yaml) refuses it too", async () => {
    const { repo, link } = world();
    const file = join(repo, "snapshots/a.md");
    link(file);
    const refused = namesRefusal({ nlink: 2 }, file)?.message;
    for (const o of [{}, { at: file }, { planted: plantedCheck() }]) {
      await expect(readFileNoFollow(file, 1000, o)).rejects.toMatchObject({
        code: "unsafe-target",
        reason: refused,
      });
    }
    // A scenario file: its error says why, and nothing of the file.
    const scenario = join(repo, "snapshots/a.scenario.yaml");
    link(scenario);
    const error = await readScenario(scenario).catch((e: Error) => e);
    expect(String(error)).toContain("hard links");
    expect(String(error)).not.toContain(SECRET);
  });

  it("the loaders refuse it: .pi layer, context file, config, preset, skills, templates (async and sync)", async () => {
    const { root, home, repo, link } = world();
    const agentDir = join(root, "agent");
    mkdirSync(agentDir);
    for (const path of [
      ".pi/sections/team.md",
      ".pi/APPEND_SYSTEM.md",
      ".pi/sysprompt.yaml",
      ".pi/agents/mine.yaml",
      ".pi/skills/lint/SKILL.md",
      ".pi/prompts/review.md",
    ]) {
      link(join(repo, path));
    }
    link(join(repo, "AGENTS.md"));
    const base = { cwd: repo, home, agentDir, env: {}, now: NOW };
    const result = await renderSystemPrompt({ ...base, agent: "mine", configFiles: true });
    expect(result.text).not.toContain(SECRET);
    const refused = result.diagnostics.filter((d) => d.message.includes("hard links"));
    expect(refused.map((d) => [d.code, d.path])).toEqual(
      expect.arrayContaining([
        ["file-outside-project", join(repo, ".pi/sections/team.md")],
        ["file-outside-project", join(repo, ".pi/APPEND_SYSTEM.md")],
        ["config-refused", join(repo, ".pi/sysprompt.yaml")],
        ["file-outside-project", join(repo, ".pi/agents/mine.yaml")],
        ["file-outside-project", join(repo, "AGENTS.md")],
        ["file-outside-project", join(repo, ".pi/skills/lint/SKILL.md")],
      ]),
    );
    const config = await loadConfigFiles({
      agentDir,
      home,
      cwd: repo,
      projectDir: join(repo, ".pi"),
      projectTrusted: true,
    });
    expect(codes(config)).toEqual(["config-refused"]);
    const skills = await loadSkills({ cwd: repo, home, agentDir, env: {} });
    expect(skills.skills).toEqual([]);
    expect(JSON.stringify(skills)).not.toContain(SECRET);
    const templates = { cwd: repo, home, agentDir, env: {} };
    for (const loaded of [
      await loadPromptTemplates(templates),
      loadPromptTemplatesSync(templates),
    ]) {
      expect(loaded.templates).toEqual([]);
      expect(codes(loaded)).toContain("file-outside-project");
    }
  });

  it("a skill's expansion (the sync twin) refuses a SKILL.md made a hard link after it was listed", async () => {
    const { root, home, repo, link } = world();
    const agentDir = join(root, "agent");
    const skill = join(repo, ".pi/skills/lint/SKILL.md");
    put(skill, "---\nname: lint\ndescription: Lint it.\n---\nRun the linter.\n");
    const o = { cwd: repo, home, agentDir, env: {} };
    const { skills } = await loadSkills(o);
    expect(expandSkillCommand("/skill:lint now", skills, o)).toContain("Run the linter.");
    rmSync(skill);
    link(skill);
    expect(expandSkillCommand("/skill:lint now", skills, o)).toBe("/skill:lint now");
  });

  it("your own files are read whatever their links: no reach, your sysprompt.yaml, a file you name", async () => {
    const { root, home, repo, link } = world();
    const agentDir = join(root, "agent");
    const notes = join(home, "notes/rules.md");
    put(notes, "MY-RULE: answer briefly.\n");
    link(join(agentDir, "AGENTS.md"), notes);
    put(join(home, "notes/config.yaml"), "deadline: 4000\n");
    link(join(agentDir, "sysprompt.yaml"), join(home, "notes/config.yaml"));
    expect(names(notes)).toBe(2);
    expect(await readRepoText(notes, { own: undefined })).toMatchObject({
      ok: true,
      text: "MY-RULE: answer briefly.\n",
    });
    expect(readRepoTextSync(notes, { own: undefined })).toMatchObject({ ok: true });
    const config = await loadConfigFiles({
      agentDir,
      home,
      cwd: repo,
      projectDir: join(repo, ".pi"),
      projectTrusted: true,
    });
    expect(config.files[0]?.values).toEqual({ deadlineMs: 4000 });
    expect(config.diagnostics).toEqual([]);
    const result = await renderSystemPrompt({
      cwd: repo,
      home,
      agentDir,
      env: {},
      now: NOW,
      appendSystemPrompt: "~/notes/rules.md",
    });
    // The agent dir's AGENTS.md, a second name of it, is refused (review rev108b F4).
    expect(result.text.match(/MY-RULE/g)).toHaveLength(1);
  });

  it("a repository cannot carry one: git stores the content, and a clone's files are separate", () => {
    const root = realpathSync(tempDir());
    const source = join(root, "source");
    mkdirSync(source);
    git(source, "init", "-q", "-b", "main");
    writeFileSync(join(source, "notes.md"), "Shared text.\n");
    linkSync(join(source, "notes.md"), join(source, "AGENTS.md"));
    git(source, "add", ".");
    git(source, "commit", "-q", "-m", "two names, one file");
    git(root, "clone", "-q", "--no-local", source, "clone");
    for (const name of ["AGENTS.md", "notes.md"]) {
      expect(statSync(join(root, "clone", name)).nlink).toBe(1);
    }
  });
});
