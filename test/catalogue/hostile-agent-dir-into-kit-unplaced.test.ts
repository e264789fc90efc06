import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPreset } from "../../src/agents/load.js";
import { diffEjected } from "../../src/author/index.js";
import { piConfigFiles } from "../../src/integrations/pi/config-keys.js";
import { loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { expandSkillCommand, loadSkills } from "../../src/skills/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A file of yours linked into a checkout (a prompt kit `~/kits/team` unpacked from a tarball by
// Python's tarfile before 3.14, its files hard links to your `~/.ssh/id_rsa`) is read through that
// checkout's door, which refuses a file with more than one name (review rev98a F1). The readers
// that still read yours unplaced (fx100b, rev99a F3): the synchronous loaders
// (`loadPromptTemplatesSync`, a skill's expansion), your presets (`agents/<name>.yaml`, whose
// placement must not hear the render's deadline: `--deadline 0` refused your own preset once),
// pi's read of your `sysprompt.yaml`, your rule files and `eject --diff --user`. Each now places
// your file as the door does, or is refused with the door's warning.

const SECRET = "SSHSECRET-MARKER-UNPLACED";

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Your home with a key, and the kit checkout `~/kits/team` whose `prompts.md` is a second name of it. */
function kitHome(key = `${SECRET}\n`) {
  const root = tempDir();
  const home = join(root, "home");
  const kit = join(home, "kits/team");
  put(join(home, ".ssh/id_rsa"), key);
  put(join(kit, ".git/HEAD"), "ref: refs/heads/main\n");
  put(join(kit, "plain.md"), "KIT-PLAIN-TEMPLATE $1\n");
  linkSync(join(home, ".ssh/id_rsa"), join(kit, "prompts.md"));
  const project = join(root, "project");
  mkdirSync(project, { recursive: true });
  return { root, home, kit, project, agent: join(home, ".pi/agent") };
}

/** `path` made a link to the kit's second name of your key. */
function intoKit(kit: string, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(join(kit, "prompts.md"), path);
}

const hardLinkWarnings = (diagnostics: readonly { message: string }[]) =>
  diagnostics.filter((d) => d.message.includes("hard links to one file"));

describe("hostile-agent-dir-into-kit-unplaced: the synchronous loaders", () => {
  // The kit is not the project rendered: a synchronous read, which cannot ask its private files,
  // refuses its files trusted or not (review rev109a F2); the hard link is never read.
  it("loadPromptTemplatesSync: ~/.pi/agent/prompts/leak.md -> the kit's hard link is refused with a warning", () => {
    const { home, kit, project, agent } = kitHome();
    put(join(agent, "prompts/mine.md"), "MY-OWN-TEMPLATE $1\n");
    intoKit(kit, join(agent, "prompts/leak.md"));
    const result = loadPromptTemplatesSync({ cwd: project, agentDir: agent, home });
    expect(result.templates.map((t) => t.name)).toEqual(["mine"]);
    expect(JSON.stringify(result.templates)).not.toContain(SECRET);
    const leak = result.diagnostics.filter((d) => d.path === join(agent, "prompts/leak.md"));
    expect(leak.map((d) => d.code)).toEqual(["file-private"]);
  });

  it("loadPromptTemplatesSync: a kit's plain file is refused, trusted or not (its private files cannot be asked)", () => {
    const { home, kit, project, agent } = kitHome();
    mkdirSync(join(agent, "prompts"), { recursive: true });
    symlinkSync(join(kit, "plain.md"), join(agent, "prompts/kit.md"));
    const trusted = loadPromptTemplatesSync({ cwd: project, agentDir: agent, home });
    expect(trusted.templates).toEqual([]);
    expect(trusted.diagnostics.map((d) => d.code)).toContain("file-private");
    const untrusted = loadPromptTemplatesSync({
      cwd: project,
      agentDir: agent,
      home,
      projectTrusted: false,
    });
    expect(untrusted.templates).toEqual([]);
    expect(untrusted.diagnostics.map((d) => d.code)).toContain("file-private");
  });

  it("expandSkillCommand: your SKILL.md swapped for a link to the kit's hard link after the load is not read", async () => {
    const { home, kit, project, agent } = kitHome();
    const file = join(agent, "skills/lint/SKILL.md");
    put(file, "---\nname: lint\ndescription: MY-OWN-SKILL\n---\nMY-OWN-BODY\n");
    const options = { cwd: project, agentDir: agent, home };
    const { skills } = await loadSkills(options);
    expect(expandSkillCommand("/skill:lint now", skills, options)).toContain("MY-OWN-BODY");
    rmSync(file);
    intoKit(kit, file);
    expect(expandSkillCommand("/skill:lint now", skills, options)).toBe("/skill:lint now");
  });
});

describe("hostile-agent-dir-into-kit-unplaced: your presets, with no deadline", () => {
  const folders = (root: string, home: string, agent: string) => ({
    builtinDir: join(root, "builtin"),
    agentDir: agent,
    projectDir: join(root, "project/.pi"),
    trusted: true,
    cwd: join(root, "project"),
    home,
  });

  it("~/.pi/agent/agents/leak.yaml -> the kit's hard link is refused with a warning", async () => {
    const { root, home, kit, agent } = kitHome(`name: ${SECRET}\n`);
    intoKit(kit, join(agent, "agents/leak.yaml"));
    const { preset, diagnostics } = await loadPreset("leak", folders(root, home, agent), {
      required: false,
    });
    expect(JSON.stringify(preset)).not.toContain(SECRET);
    expect(hardLinkWarnings(diagnostics)).toHaveLength(1);
  });

  it("deadlineMs 0: your own preset, and one you link into the kit's plain file, are still read", async () => {
    const { root, home, kit, agent } = kitHome();
    put(join(agent, "agents/mine.yaml"), "description: MY-OWN-AGENT\n");
    put(join(kit, "agents/kit.yaml"), "description: KIT-AGENT\n");
    symlinkSync(join(kit, "agents/kit.yaml"), join(agent, "agents/kit.yaml"));
    for (const name of ["mine", "kit"]) {
      const { preset, diagnostics } = await loadPreset(name, {
        ...folders(root, home, agent),
        signal: AbortSignal.abort(),
      });
      expect(preset.description).toMatch(/-AGENT$/);
      expect(diagnostics).toEqual([]);
      const result = await renderSystemPrompt(
        pinned(root, { agentDir: agent, home, agent: name, deadlineMs: 0 }),
      );
      expect(result.diagnostics.filter((d) => d.code === "file-outside-project")).toEqual([]);
    }
  });
});

describe("hostile-agent-dir-into-kit-unplaced: pi's config, your rules, eject --diff --user", () => {
  it("piConfigFiles: ~/.pi -> the kit, its agent/sysprompt.yaml a hard link, is config-refused", async () => {
    const { home, kit, project, agent } = kitHome(`model: ${SECRET}\n`);
    // A link at the file's own name is refused by any read of it: the kit linked whole.
    mkdirSync(join(kit, "agent"));
    linkSync(join(home, ".ssh/id_rsa"), join(kit, "agent/sysprompt.yaml"));
    symlinkSync(kit, join(home, ".pi"));
    const files = await piConfigFiles(project, agent, true, home);
    expect(JSON.stringify(files)).not.toContain(SECRET);
    expect(files[0]?.found).toBe(false);
    expect(files[0]?.diagnostics.map((d) => d.code)).toEqual(["config-refused"]);
  });

  it("~/.pi/agent/rules/leak.md -> the kit's hard link is refused with a warning (rev99a F3)", async () => {
    const { root, home, kit, agent } = kitHome(`---\nalwaysApply: true\n---\n${SECRET}\n`);
    put(join(agent, "rules/mine.md"), "---\nalwaysApply: true\n---\nMY-OWN-RULE\n");
    intoKit(kit, join(agent, "rules/leak.md"));
    const result = await renderSystemPrompt(pinned(root, { agentDir: agent, home }));
    expect(result.text).toContain("MY-OWN-RULE");
    expect(result.text).not.toContain(SECRET);
    expect(hardLinkWarnings(result.diagnostics)).toHaveLength(1);
  });

  it("eject --diff --user: ~/.pi/agent/sections/rules.md -> the kit's hard link is refused", async () => {
    const { home, kit, project, agent } = kitHome();
    // Your sections folder linked to the kit's (eject refuses a link at the file's own name).
    mkdirSync(join(kit, "sections"));
    linkSync(join(home, ".ssh/id_rsa"), join(kit, "sections/rules.md"));
    mkdirSync(agent, { recursive: true });
    symlinkSync(join(kit, "sections"), join(agent, "sections"));
    await expect(
      diffEjected({ name: "rules", user: true, cwd: project, agentDir: agent, home, env: {} }),
    ).rejects.toThrow(/hard links to one file/);
  });
});
