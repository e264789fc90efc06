import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates } from "../../src/prompt-templates/load.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { loadSkills } from "../../src/skills/load.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { gitRepository } from "./_nested.js";

// A skill or template folder you name is walked link by link (the held walk), and a walk past
// its work bound or the deadline is stopped. cut47 walked the named paths before your own
// default folders were kept, and a stopped walk threw out of the load: a hostile project whose
// own `skills` folder is a chain of padded links, named as docs/trust.md says to name a
// project's skills (`skillPaths: ["skills"]`), made renderSystemPrompt throw ("too deep") and
// loadPromptTemplates throw with your templates gone. Now your folders are kept first and a
// stopped named path is a warning for that path alone. Review rev48a F2 (medium).

const LINKS = 39;
const UNIT = "a/b/c/d/e/f/g/h/i/j/../../../../../../../../../../";

/**
 * The project's `skills`: a link into `p/…/p` (ten deep), whence LINKS links, each padded with
 * 70 walks down ten folders and up, lead to `real/`. Its walk passes the work bound (WALK_BUDGET).
 */
function chainedProject(root: string): string {
  const project = join(root, "project");
  gitRepository(project);
  const at = join(project, ...Array.from({ length: 10 }, () => "p"));
  mkdirSync(join(at, "a/b/c/d/e/f/g/h/i/j"), { recursive: true });
  mkdirSync(join(at, "real", "ps"), { recursive: true });
  writeFileSync(
    join(at, "real", "ps", "SKILL.md"),
    "---\nname: ps\ndescription: PROJ-SKILL-MARKER\n---\nb\n",
  );
  writeFileSync(join(at, "real", "pt.md"), "---\ndescription: PROJ-TPL\n---\nx\n");
  const pad = UNIT.repeat(70);
  for (let i = 1; i <= LINKS; i++) {
    symlinkSync(i < LINKS ? `${pad}l${i + 1}` : `${pad}real`, join(at, `l${i}`));
  }
  symlinkSync(`${"p/".repeat(10)}l1`, join(project, "skills"));
  return project;
}

function yours(root: string) {
  const skill = join(root, "agent", "skills", "mine");
  mkdirSync(skill, { recursive: true });
  writeFileSync(join(skill, "SKILL.md"), "---\nname: mine\ndescription: MY-OWN-SKILL\n---\nbody\n");
  const named = join(root, "home", "myskills", "other");
  mkdirSync(named, { recursive: true });
  writeFileSync(join(named, "SKILL.md"), "---\nname: other\ndescription: MY-NAMED-SKILL\n---\nb\n");
  mkdirSync(join(root, "agent", "prompts"), { recursive: true });
  writeFileSync(join(root, "agent", "prompts", "mine.md"), "---\ndescription: MY-TPL\n---\nx\n");
}

describe("hostile-named-skills-stop-scale: a named folder whose links cannot be checked is its own warning", () => {
  it("render: no throw; your skills (default and named) kept, the project's chained folder refused, located", async () => {
    const root = tempDir();
    yours(root);
    const project = chainedProject(root);
    const result = await renderSystemPrompt(
      pinned(root, { skillPaths: ["skills", "~/myskills"], deadlineMs: 20_000 }),
    );
    expect(result.text).toContain("MY-OWN-SKILL");
    expect(result.text).toContain("MY-NAMED-SKILL");
    expect(result.text).not.toContain("PROJ-SKILL-MARKER");
    const refused = result.diagnostics.find((d) => d.code === "file-outside-project");
    expect(refused?.path).toBe(join(project, "skills"));
    expect(refused?.message).toContain("too deep to check");
  });

  it("loadSkills: soFar holds your default folder's skills", async () => {
    const root = tempDir();
    yours(root);
    chainedProject(root);
    const soFar: { value?: Awaited<ReturnType<typeof loadSkills>> } = {};
    const { cwd, agentDir, home } = pinned(root);
    const result = await loadSkills({
      cwd,
      agentDir,
      home,
      paths: ["skills"],
      signal: AbortSignal.timeout(20_000),
      soFar,
    });
    expect(result.skills.map((s) => s.name)).toEqual(["mine"]);
    expect(soFar.value?.skills.map((s) => s.name)).toEqual(["mine"]);
  });

  it("loadPromptTemplates: no throw; your template kept, the chained folder a warning", async () => {
    const root = tempDir();
    yours(root);
    const project = chainedProject(root);
    const { cwd, agentDir, home } = pinned(root);
    const soFar: { value?: Awaited<ReturnType<typeof loadPromptTemplates>> } = {};
    const result = await loadPromptTemplates({
      cwd,
      agentDir,
      home,
      paths: ["skills"],
      signal: AbortSignal.timeout(20_000),
      soFar,
    });
    expect(result.templates.map((t) => t.name)).toEqual(["mine"]);
    expect(soFar.value?.templates.map((t) => t.name)).toEqual(["mine"]);
    const refused = result.diagnostics.find((d) => d.code === "file-outside-project");
    expect(refused?.path).toBe(join(project, "skills"));
    expect(refused?.level).toBe("warning");
  });
});
