import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { checkPresets, presetNames } from "../../src/agents/load.js";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { swaps } from "./_folder-swap.js";

// rev88a F2: a trusted project's `.pi/sections` (`.pi/prompts`, `.pi/agents`) renamed back and
// forth with a link to `~/.ssh` while renders ran printed your files' names in 3 of 30 renders:
// the folder was asked of the door (`folderRefused`), then listed again by its path, which
// followed the link swapped in between. The folder is now opened and held first, its real path
// as the kernel names it judged, and the listing read through that descriptor
// (`listProjectFolder`, src/repo-files/project-folder.ts). A race loop is flaky, so the swap is
// made here at the one point it mattered: just before the listing opens the folder (the
// listing's `opendirSync`), once per folder.

vi.mock("../../src/_io.js", async (importOriginal) =>
  (await import("./_folder-swap.js")).swappingIo(await importOriginal()),
);

function setup() {
  const root = tempDir();
  const project = join(root, "project");
  const home = join(root, "home");
  const ssh = join(home, ".ssh");
  mkdirSync(ssh, { recursive: true });
  writeFileSync(join(ssh, "id_rsa"), "KEY-SECRET\n");
  writeFileSync(join(ssh, "private-notes.md"), "NOTES-SECRET\n");
  writeFileSync(join(ssh, "work.yaml"), "description: YAML-SECRET\n");
  execFileSync("git", ["init", "-q", project]);
  writeFileSync(join(project, "AGENTS.md"), "# root\n");
  for (const folder of ["sections", "prompts", "agents"]) {
    mkdirSync(join(project, ".pi", folder), { recursive: true });
  }
  writeFileSync(join(project, ".pi", "sections", "mine.md"), "PROJECT-SECTION\n");
  writeFileSync(join(project, ".pi", "prompts", "mine.md"), "project prompt\n");
  writeFileSync(join(project, ".pi", "agents", "mine.yaml"), "description: project\n");
  const agentDir = join(root, "agent");
  mkdirSync(agentDir, { recursive: true });
  return { root, project, home, ssh, agentDir };
}

function noNameOfYours(said: string) {
  for (const name of ["id_rsa", "private-notes", "work.yaml", "SECRET"])
    expect(said).not.toContain(name);
}

describe("hostile repository: a project folder swapped for a link after its check lists nothing of yours", () => {
  it("sections: the render names no file of yours", async () => {
    const s = setup();
    const at = join(s.project, ".pi", "sections");
    swaps.set(at, s.ssh);
    const result = await renderSystemPrompt(pinned(s.root, { projectTrusted: true, home: s.home }));
    expect(swaps.has(at)).toBe(false);
    noNameOfYours(JSON.stringify(result.diagnostics));
    noNameOfYours(result.text);
  });

  it("prompts: no template name of yours, async and sync", async () => {
    const s = setup();
    const at = join(s.project, ".pi", "prompts");
    const options = { cwd: s.project, agentDir: s.agentDir, home: s.home, projectTrusted: true };
    swaps.set(at, s.ssh);
    const loaded = await loadPromptTemplates(options);
    expect(swaps.has(at)).toBe(false);
    noNameOfYours(JSON.stringify(loaded));
    // Put back for the synchronous twin, and swapped again at its listing.
    execFileSync("rm", [at]);
    renameSync(`${at}.real`, at);
    swaps.set(at, s.ssh);
    const sync = loadPromptTemplatesSync(options);
    expect(swaps.has(at)).toBe(false);
    noNameOfYours(JSON.stringify(sync));
  });

  it("agents: no preset name of yours", async () => {
    const s = setup();
    const at = join(s.project, ".pi", "agents");
    const folders = {
      builtinDir: join(s.root, "builtin"),
      agentDir: s.agentDir,
      projectDir: join(s.project, ".pi"),
      trusted: true,
      cwd: s.project,
      home: s.home,
    };
    swaps.set(at, s.ssh);
    const checked = await checkPresets(folders);
    expect(swaps.has(at)).toBe(false);
    noNameOfYours(JSON.stringify(checked));
    execFileSync("rm", [at]);
    renameSync(`${at}.real`, at);
    swaps.set(at, s.ssh);
    const names = await presetNames(folders);
    expect(swaps.has(at)).toBe(false);
    expect(names).not.toContain("work");
  });
});
