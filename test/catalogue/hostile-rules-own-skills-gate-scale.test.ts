import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { recordReads } from "../../src/_io.js";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cli } from "../cli/_run.js";
import { denseFile } from "./_dense-yaml.js";

// rev49b F2: one gate (250 ms at most) held the project's layer and git steps until your
// AGENTS.md, rule folders and skill folders were read, but the rule-files and skills steps'
// own repository parts waited for your AGENTS.md alone. A project's 60 `.cursor/rules/*.mdc`
// of dense frontmatter (60 ms of parsing each, a turn of the event loop between two) were then
// read and parsed while the skills step still read your skills folder, one file a turn, and
// your 20 skills were out of the prompt at every deadline (0 of 20 renders, trusted and
// `--untrusted`). Now every repository part of every step waits at the gate, and each step
// marks its own part read before it waits. Asserted on the order of the reads, which the gate
// decides, not on the clock: no file of the project's rules folder is looked at before the
// last of your skills is read.

const SKILLS = 20;
const RULES = 60;

function fixture(rules = RULES) {
  const root = tempDir();
  const files: Record<string, string> = {
    "agent/AGENTS.md": "USER-AGENTS-MD-MARKER: always be careful.\n",
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "The project's context.\n",
  };
  for (let i = 0; i < SKILLS; i++) {
    files[`agent/skills/my${i}/SKILL.md`] =
      `---\nname: my${i}\ndescription: USER-SKILL-${i} does things\n---\nbody\n`;
  }
  for (let i = 0; i < rules; i++) {
    files[`project/.cursor/rules/r${String(i).padStart(3, "0")}.mdc`] = denseFile(
      `description: rule ${i}\nglobs: "*.ts"\n`,
      `Rule ${i}.`,
    );
  }
  writeFiles(root, files);
  return {
    root,
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "agent"),
  };
}

/** Every look (`stat`, `lstat`, `realpath`, …) through src/_io.ts while `work` runs, in the order seen. */
async function looks<T>(work: () => Promise<T>): Promise<{ result: T; seen: string[] }> {
  const seen: string[] = [];
  const result = await recordReads(
    { has: () => false, note: (probe, path) => seen.push(`${probe} ${path}`) },
    work,
  );
  return { result, seen };
}

/**
 * How many of your skills were read (the `stat` src/_io.ts notes before it opens a file; a
 * later look at your file, such as the full load's realpath, is no read), and how many looks
 * at the project's rules folder came before the last of them.
 */
function rulesBeforeYourSkills(seen: readonly string[], root: string) {
  const yours = join(root, "agent", "skills");
  const read = new Set<string>();
  let lastRead = -1;
  for (const [i, look] of seen.entries()) {
    if (look.startsWith(`stat ${yours}`) && look.endsWith("/SKILL.md") && !read.has(look)) {
      read.add(look);
      lastRead = i;
    }
  }
  const rules = join(root, "project", ".cursor");
  const before = seen.slice(0, lastRead).filter((look) => look.includes(` ${rules}`)).length;
  return { skillsRead: read.size, rulesLooksBefore: before };
}

const GATED = { skillsRead: SKILLS, rulesLooksBefore: 0 };

describe("hostile repository: dense rule files do not read ahead of your skills", () => {
  // Warm: modules loaded (a cold module graph's lazy imports answer no file-system call, and
  // 250 ms of them opens the gate as a hung disk would), the builtin templates compiled.
  beforeAll(async () => {
    const { root, ...paths } = fixture(1);
    await renderSystemPrompt(paths);
    await cli(root, ["list", "--agent-dir", paths.agentDir], false);
  }, 30_000);

  for (const projectTrusted of [true, false]) {
    it(`render${projectTrusted ? "" : " (untrusted)"}: the rules wait until your skills are read, and your skills are listed`, async () => {
      const { root, ...paths } = fixture();
      const { result, seen } = await looks(() =>
        renderSystemPrompt({ ...paths, projectTrusted, deadlineMs: 1500 }),
      );
      expect(rulesBeforeYourSkills(seen, root)).toEqual(GATED);
      expect(result.text).toContain("USER-AGENTS-MD-MARKER");
      expect(new Set(result.text.match(/USER-SKILL-\d+/g)).size).toBe(SKILLS);
    }, 30_000);
  }

  it("list: the rules wait until your skills are read", async () => {
    const { root } = fixture();
    const { result, seen } = await looks(() =>
      cli(root, ["list", "--agent-dir", join(root, "agent"), "--untrusted"], false),
    );
    expect(result.code).toBe(0);
    expect(rulesBeforeYourSkills(seen, root)).toEqual(GATED);
    expect(result.stdout).toContain("USER-SKILL-19");
  }, 30_000);
});
