import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/index.js";
import { loadConfigFiles } from "../../src/config/load.js";
import { loadPromptTemplates } from "../../src/prompt-templates/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { loadSkills } from "../../src/skills/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Your agent dir's file linked into a checkout (a prompt kit `~/kits/team` unpacked from a
// tarball by Python's tarfile before 3.14, its files hard links to your `~/.ssh/id_rsa`):
// your `AGENTS.md` linked there was read through the kit's door, which refuses a file with
// more than one name, but your `SYSTEM.md`, `APPEND_SYSTEM.md` and `sections/*.md`, read with
// no reach, put the key in the prompt, and so did every file of `~/.pi` linked to the kit
// whole (review rev98a F1). A file of your layer whose real path lies in a checkout is now
// read through that checkout's door, as your AGENTS.md is; your plain files are read as before.

const SECRET = "SSHSECRET-MARKER-KIT";

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Your home with a key, and the kit checkout `~/kits/team` whose `prompts.md` is a second name of it. */
function kitHome(): { root: string; home: string; kit: string; agent: string } {
  const root = tempDir();
  const home = join(root, "home");
  const kit = join(home, "kits/team");
  put(join(home, ".ssh/id_rsa"), `${SECRET}\n`);
  put(join(kit, ".git/HEAD"), "ref: refs/heads/main\n");
  put(join(kit, "AGENTS.md"), "# team\n");
  linkSync(join(home, ".ssh/id_rsa"), join(kit, "prompts.md"));
  mkdirSync(join(root, "project"), { recursive: true });
  return { root, home, kit, agent: join(home, ".pi/agent") };
}

const render = (root: string, agent: string) =>
  renderSystemPrompt(pinned(root, { cwd: join(root, "project"), agentDir: agent }));

const hardLinkWarnings = (diagnostics: readonly { message: string }[]) =>
  diagnostics.filter((d) => d.message.includes("hard links to one file"));

describe("hostile-agent-dir-into-kit: a file of your agent dir linked into a checkout's hard link to your key", () => {
  for (const file of ["SYSTEM.md", "APPEND_SYSTEM.md", "sections/zz.md", "partials/p.md"]) {
    it(`~/.pi/agent/${file} -> the kit's prompts.md is refused with a warning`, async () => {
      const { root, kit, agent } = kitHome();
      mkdirSync(dirname(join(agent, file)), { recursive: true });
      symlinkSync(join(kit, "prompts.md"), join(agent, file));
      const result = await render(root, agent);
      expect(result.text).not.toContain(SECRET);
      expect(hardLinkWarnings(result.diagnostics)).toHaveLength(1);
    });
  }

  it("~/.pi -> the kit: its agent/APPEND_SYSTEM.md and agent/AGENTS.md, hard links, are refused", async () => {
    const { root, home, kit, agent } = kitHome();
    mkdirSync(join(kit, "agent"));
    linkSync(join(home, ".ssh/id_rsa"), join(kit, "agent/APPEND_SYSTEM.md"));
    linkSync(join(home, ".ssh/id_rsa"), join(kit, "agent/AGENTS.md"));
    symlinkSync(kit, join(home, ".pi"));
    const result = await render(root, agent);
    expect(result.text).not.toContain(SECRET);
    expect(hardLinkWarnings(result.diagnostics)).toHaveLength(2);
  });

  it("your plain files are still read, links and all, and a ~/.pi/agent you keep in git is yours", async () => {
    const { root, home, agent } = kitHome();
    put(join(home, "notes/system.md"), "MY-OWN-SYSTEM\n");
    put(join(agent, ".git/HEAD"), "ref: refs/heads/main\n");
    put(join(agent, "APPEND_SYSTEM.md"), "MY-OWN-APPEND\n");
    put(join(agent, "sections/mine.md"), "---\norder: 900\n---\nMY-OWN-SECTION\n");
    symlinkSync(join(home, "notes/system.md"), join(agent, "SYSTEM.md"));
    const result = await render(root, agent);
    for (const mine of ["MY-OWN-SYSTEM", "MY-OWN-APPEND", "MY-OWN-SECTION"])
      expect(result.text).toContain(mine);
    expect(hardLinkWarnings(result.diagnostics)).toEqual([]);
  });
});

describe("hostile-agent-dir-into-kit: your prompt templates linked into a checkout's hard link to your key", () => {
  it("~/.pi/agent/prompts/leak.md -> the kit's prompts.md is refused with a warning, not expanded", async () => {
    const { root, home, kit, agent } = kitHome();
    put(join(agent, "prompts/mine.md"), "MY-OWN-TEMPLATE $1\n");
    symlinkSync(join(kit, "prompts.md"), join(agent, "prompts/leak.md"));
    const result = await loadPromptTemplates({ cwd: join(root, "project"), agentDir: agent, home });
    expect(result.templates.map((t) => t.name)).toEqual(["mine"]);
    expect(JSON.stringify(result.templates)).not.toContain(SECRET);
    expect(hardLinkWarnings(result.diagnostics)).toHaveLength(1);
  });
});

describe("hostile-agent-dir-into-kit: your skills linked into a checkout's hard link to your key", () => {
  it("~/.pi/agent/skills/leak -> the kit's skill folder, its SKILL.md a hard link, is refused with a warning", async () => {
    const { root, home, kit, agent } = kitHome();
    put(
      join(agent, "skills/mine/SKILL.md"),
      "---\nname: mine\ndescription: MY-OWN-SKILL\n---\nbody\n",
    );
    mkdirSync(join(kit, "skill"));
    linkSync(join(home, ".ssh/id_rsa"), join(kit, "skill/SKILL.md"));
    symlinkSync(join(kit, "skill"), join(agent, "skills/leak"));
    const result = await loadSkills({ cwd: join(root, "project"), agentDir: agent, home });
    expect(result.skills.map((s) => s.name)).toEqual(["mine"]);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(hardLinkWarnings(result.diagnostics)).toHaveLength(1);
  });
});

describe("hostile-agent-dir-into-kit: check reads your layer as a render does", () => {
  for (const file of ["partials/p.md", "SYSTEM_TEMPLATE.md", "sections/zz.md"]) {
    it(`check: ~/.pi/agent/${file} -> the kit's prompts.md is refused with a warning, its text not read`, async () => {
      const { root, home, kit, agent } = kitHome();
      // A file whose template errors would say where its text has `{{`, and what it names.
      writeFileSync(join(home, ".ssh/id_rsa"), `${SECRET} {{#if}} {{> ${SECRET}}}\n`);
      mkdirSync(dirname(join(agent, file)), { recursive: true });
      symlinkSync(join(kit, "prompts.md"), join(agent, file));
      const report = await checkProject({ cwd: join(root, "project"), agentDir: agent, home });
      expect(JSON.stringify(report)).not.toContain(SECRET);
      expect(report.diagnostics.filter((d) => d.path === join(agent, file))).toEqual([]);
      expect(hardLinkWarnings(report.diagnostics)).toHaveLength(1);
    });
  }
});

describe("hostile-agent-dir-into-kit: your sysprompt.yaml in a checkout", () => {
  it("~/.pi -> the kit: its agent/sysprompt.yaml, a hard link, is refused with a warning", async () => {
    const { root, home, kit } = kitHome();
    writeFileSync(join(home, ".ssh/id_rsa"), `agent-name: ${SECRET}\n`);
    mkdirSync(join(kit, "agent"));
    linkSync(join(home, ".ssh/id_rsa"), join(kit, "agent/sysprompt.yaml"));
    symlinkSync(kit, join(home, ".pi"));
    const folders = { cwd: join(root, "project"), agentDir: join(home, ".pi/agent") };
    const { files, diagnostics } = await loadConfigFiles({
      ...folders,
      projectDir: join(root, "project/.pi"),
      projectTrusted: true,
      home,
    });
    expect(JSON.stringify(files)).not.toContain(SECRET);
    expect(diagnostics.filter((d) => d.code === "config-refused")).toHaveLength(1);
  });
});
