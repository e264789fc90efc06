import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliAt } from "./_cli-at.js";
import { DESCRIBED, layout } from "./_home-in-checkout.js";

// With HOME at the checkout's root, `list --untrusted` showed the project's
// .agents/skills and agent dir as yours, and `expand --untrusted "/skill:x"`
// printed the file a SKILL.md there links to, anywhere; `check --untrusted`
// read that agent dir too. They take the render's agent dir and the skills
// loader's test now (see hostile-home-user-folders). Ten CLI runs: slow tier.

/** The CLI run in `cwd` with `home` as the home folder. */
async function cli(argv: string[], cwd: string, home: string) {
  const { code, all } = await cliAt(argv, cwd, home);
  return { code, out: all };
}

describe("hostile repository: list, expand and check with a home folder in the checkout", () => {
  it("list, expand and check --untrusted read neither ~/.agents/skills nor the agent dir there", async () => {
    const { base, project, home } = layout("root");
    const agent = join(project, ".pi", "agent");
    mkdirSync(join(agent, "prompts"), { recursive: true });
    mkdirSync(join(agent, "skills", "mine"), { recursive: true });
    symlinkSync(join(base, "secret", "notes.md"), join(agent, "prompts", "x.md"));
    symlinkSync(join(base, "secret", "notes.md"), join(agent, "skills", "mine", "SKILL.md"));
    for (const cwd of [project, join(project, "src")]) {
      for (const argv of [
        ["list", "--untrusted"],
        ["expand", "--untrusted", "/skill:leak"],
        ["expand", "--untrusted", "/skill:mine"],
        ["expand", "--untrusted", "/x"],
        ["check", "--untrusted"],
      ]) {
        const { out } = await cli(argv, cwd, home);
        expect(out, argv.join(" ")).not.toMatch(/LEAKED-DESCRIPTION|SECRET-MARKER/);
      }
    }
  });

  it("explain --untrusted counts no template of that agent dir", async () => {
    const { base, project, home } = layout("root");
    const prompts = join(project, ".pi", "agent", "prompts");
    mkdirSync(prompts, { recursive: true });
    symlinkSync(join(base, "secret", "notes.md"), join(prompts, "x.md"));
    const { out } = await cli(["explain", "--untrusted"], join(project, "src"), home);
    expect(out).toMatch(/^templates: \d+ sections, \d+ partials, 0 prompt templates$/m);
  });

  // Its links followed within your home folder and agent dir; one out of both is refused (decided,
  // review rev107a F2).
  it("with HOME outside the checkout, list --untrusted shows your ~/.agents/skills as before", async () => {
    const { base, project } = layout("root");
    const elsewhere = join(base, "home");
    mkdirSync(join(elsewhere, ".agents", "skills", "mine"), { recursive: true });
    writeFileSync(join(elsewhere, "notes.md"), DESCRIBED);
    symlinkSync(
      join(elsewhere, "notes.md"),
      join(elsewhere, ".agents", "skills", "mine", "SKILL.md"),
    );
    const { out } = await cli(["list", "--untrusted"], project, elsewhere);
    expect(out).toMatch(/mine +LEAKED-DESCRIPTION deploy notes +user/);
  });
});
