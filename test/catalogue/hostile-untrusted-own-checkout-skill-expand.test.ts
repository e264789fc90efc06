import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/index.js";
import {
  expandSkillCommand,
  expandSkillCommandAsync,
  loadSkills,
  type Skill,
} from "../../src/skills/index.js";
import { tempDir } from "../api/_helpers.js";
import { cliAt } from "./_cli-at.js";

// Your agent dir is a folder of your dotfiles checkout (`~/.pi/agent -> ../dotfiles/pi-agent`, not
// a stow mirror), so your skills and templates are read through that checkout's door. Under
// `--untrusted` the synchronous door refuses every file of a checkout (it cannot ask the
// checkout's ignore files), and `expand --untrusted "/skill:foo hi"` said only that skill "foo"
// could not be read, while `list --untrusted` listed it; the refusal itself was dropped
// (review rev102a F2, a regression of fx101d's e14afafa).

const SKILL_BODY = "OWN-CHECKOUT-SKILL-BODY";

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function dotfilesHome() {
  const root = tempDir();
  const home = join(root, "home");
  const dotfiles = join(home, "dotfiles");
  put(join(dotfiles, ".git/HEAD"), "ref: refs/heads/main\n");
  put(join(dotfiles, ".gitignore"), "local/\n");
  put(
    join(dotfiles, "pi-agent/skills/foo/SKILL.md"),
    `---\nname: foo\ndescription: Foo things.\n---\n${SKILL_BODY}\n`,
  );
  put(
    join(dotfiles, "pi-agent/local/SKILL.md"),
    "---\nname: local\ndescription: Ignored.\n---\nGIT-IGNORED-SKILL-BODY\n",
  );
  // The checkout's own link to its git-ignored file: refused by its door under --untrusted.
  mkdirSync(join(dotfiles, "pi-agent/linked"), { recursive: true });
  symlinkSync("../local/SKILL.md", join(dotfiles, "pi-agent/linked/SKILL.md"));
  put(join(dotfiles, "pi-agent/prompts/bar.md"), "OWN-CHECKOUT-TEMPLATE $1\n");
  mkdirSync(join(home, ".pi"), { recursive: true });
  symlinkSync("../dotfiles/pi-agent", join(home, ".pi/agent"));
  const project = join(root, "project");
  put(join(project, ".git/HEAD"), "ref: refs/heads/main\n");
  return { home, project, agentDir: join(home, ".pi/agent") };
}

describe("hostile-untrusted-own-checkout-skill-expand", () => {
  it("expand --untrusted expands your skill in your dotfiles checkout, as list lists it", async () => {
    const { home, project } = dotfilesHome();
    const list = await cliAt(["list", "--untrusted"], project, home);
    expect(list.out).toContain("foo");
    const expand = await cliAt(["expand", "--untrusted", "/skill:foo hi"], project, home);
    expect(expand.err).not.toContain("command-unreadable");
    expect(expand.out).toContain(SKILL_BODY);
    expect(expand.out).toContain("hi");
    expect(expand.code).toBe(0);
    const template = await cliAt(["expand", "--untrusted", "/bar x"], project, home);
    expect(template.out).toContain("OWN-CHECKOUT-TEMPLATE x");
  });

  it("expandSkillCommand (synchronous) tells why it did not expand, never drops the refusal", async () => {
    const { home, project, agentDir } = dotfilesHome();
    const options = { cwd: project, home, agentDir, projectTrusted: false };
    const { skills } = await loadSkills(options);
    const told: Diagnostic[] = [];
    const out = expandSkillCommand("/skill:foo hi", skills, {
      ...options,
      onDiagnostic: (d) => told.push(d),
    });
    expect(out).toBe("/skill:foo hi");
    expect(told.map((d) => d.code)).toContain("file-private");
    const async = await expandSkillCommandAsync("/skill:foo hi", skills, options);
    expect(async).toContain(SKILL_BODY);
  });

  it("the asynchronous expansion refuses the checkout's link to its git-ignored file, trusted or not (rev109a F2)", async () => {
    const { home, project, agentDir } = dotfilesHome();
    const file = join(agentDir, "linked/SKILL.md");
    const skill: Skill = {
      name: "local",
      description: "Ignored.",
      filePath: file,
      baseDir: dirname(file),
      disableModelInvocation: false,
      source: "user",
    };
    const told: Diagnostic[] = [];
    const options = { cwd: project, home, agentDir };
    const untrusted = await expandSkillCommandAsync("/skill:local x", [skill], {
      ...options,
      projectTrusted: false,
      onDiagnostic: (d) => told.push(d),
    });
    expect(untrusted).toBe("/skill:local x");
    expect(told.map((d) => d.code)).toContain("file-private");
    // Trusted too: the dotfiles checkout is not the project rendered (review rev109a F2).
    const trusted = await expandSkillCommandAsync("/skill:local x", [skill], options);
    expect(trusted).toBe("/skill:local x");
  });
});
