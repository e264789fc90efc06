import { mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { expandSkillCommand, expandSkillCommandAsync, loadSkills } from "../../src/skills/index.js";
import { tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// A team kit cloned as your agent dir (`git clone kit ~/.pi/agent`, or a checkout named by
// `SYSPROMPT_AGENT_DIR`) is a repository of yours, with no checkout's door: its `AGENTS.md`,
// `prompts/deploy.md`, rule files and skills linked to `/run/secrets/db_password`-like files out of
// your home and agent dir were read into the prompt, the expansion and `list`, while its
// `APPEND_SYSTEM.md` linked there was refused: only the layer's reader asked for the rule
// (review rev107a F2). Every file of yours named in your home or agent dir is read only within
// them; a link into another repository (a skills folder linked to a shared checkout) is read
// through that checkout's door, as before.

const MARKER = "SECRET-RUNSECRETS-107";
const OUT = "out of your home folder and your agent dir";

function layout(agentDirAt: "home" | "outside") {
  const root = tempDir();
  const home = join(root, "home");
  const secrets = join(root, "run-secrets");
  put(join(secrets, "db_password"), `${MARKER}-DB\n`);
  put(join(secrets, "rule.md"), `---\nalwaysApply: true\n---\n${MARKER}-RULE\n`);
  put(join(secrets, "SKILL.md"), `---\nname: leak\ndescription: ${MARKER}-SKILL\n---\n${MARKER}\n`);
  // A shared checkout out of your home: a skills folder linked there is read through its door.
  const shared = join(root, "shared");
  put(join(shared, ".git/HEAD"), "ref: refs/heads/main\n");
  put(
    join(shared, "skills/lint/SKILL.md"),
    "---\nname: lint\ndescription: SHARED-SKILL-107\n---\nSHARED-BODY-107\n",
  );
  put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
  put(join(root, "project/AGENTS.md"), "# p\n");
  const agentDir = agentDirAt === "home" ? join(home, ".pi/agent") : join(root, "kit");
  put(join(agentDir, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(agentDir, ".git/objects"), { recursive: true });
  mkdirSync(join(agentDir, ".git/refs"), { recursive: true });
  mkdirSync(home, { recursive: true });
  const link = (target: string, rel: string) => {
    mkdirSync(dirname(join(agentDir, rel)), { recursive: true });
    symlinkSync(target, join(agentDir, rel));
  };
  link(join(secrets, "db_password"), "AGENTS.md");
  link(join(secrets, "db_password"), "APPEND_SYSTEM.md");
  link(join(secrets, "db_password"), "prompts/deploy.md");
  link(join(secrets, "rule.md"), "rules/team.md");
  link(join(secrets, "SKILL.md"), "skills/leak/SKILL.md");
  link(join(shared, "skills/lint"), "skills/lint");
  put(join(agentDir, "prompts/mine.md"), "KIT-TEMPLATE-107 $1\n");
  return { root, home, agentDir };
}

describe("hostile-kit-clone-agent-dir-link-out: a kit cloned as your agent dir links its files out", () => {
  for (const at of ["home", "outside"] as const) {
    const where = at === "home" ? "cloned as ~/.pi/agent" : "named out of your home";
    it(`${where}: render reads none of them, each refused with a warning`, async () => {
      const { root, home, agentDir } = layout(at);
      const result = await renderIn(root, agentDir, { home, projectTrusted: false });
      expect(JSON.stringify(result)).not.toContain(MARKER);
      const refused = result.diagnostics.filter((d) => d.message.includes(OUT)).map((d) => d.path);
      for (const rel of ["AGENTS.md", "APPEND_SYSTEM.md", "rules/team.md", "skills/leak/SKILL.md"])
        expect(refused).toContain(join(agentDir, rel));
    });

    it(`${where}: prompt templates and skills read none of them; the shared checkout's skill is read`, async () => {
      const { root, home, agentDir } = layout(at);
      const options = { cwd: join(root, "project"), agentDir, home };
      for (const result of [await loadPromptTemplates(options), loadPromptTemplatesSync(options)]) {
        expect(result.templates.map((t) => t.name)).toEqual(["mine"]);
        expect(JSON.stringify(result)).not.toContain(MARKER);
        expect(result.diagnostics.map((d) => d.path)).toContain(
          join(agentDir, "prompts/deploy.md"),
        );
      }
      const { skills, diagnostics } = await loadSkills(options);
      expect(skills.map((s) => s.name)).toEqual(["lint"]);
      expect(JSON.stringify({ skills, diagnostics })).not.toContain(MARKER);
      expect(await expandSkillCommandAsync("/skill:lint now", skills, options)).toContain(
        "SHARED-BODY-107",
      );
      // The synchronous expansion cannot ask the shared checkout's private files: left as
      // written (review rev109a F2); the asynchronous one above reads it.
      expect(expandSkillCommand("/skill:lint now", skills, options)).toBe("/skill:lint now");
    });
  }
});
