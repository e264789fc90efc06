import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPresets, loadPreset } from "../../src/agents/load.js";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";

// rev82e F2: rev82a F4 refused a trusted project's `.pi/sections` and `.pi/partials` linked out
// of the project at the folder, but the project's other folders were still listed through such
// a link, and your file names came out (never their content): `.pi/prompts -> ~/.ssh` gave a
// `file-outside-project` warning naming each `.md` file there (`list`, `check`, `expand`),
// `.pi/agents -> ~/.ssh` named each `*.yaml` there among the presets of `--agent nosuch` and in
// `check`, and `.pi -> ~/private` made each name there close to a layer file a near-miss hint
// (`.pi/system.md [file-name-case]`). Every listing of a project folder now asks the door about
// the folder first (`folderRefused`, src/repo-files/reach.ts): one warning naming the folder.

function setup(link: string) {
  const root = tempDir();
  const project = join(root, "project");
  const home = join(root, "home");
  const ssh = join(home, ".ssh");
  mkdirSync(ssh, { recursive: true });
  writeFileSync(join(ssh, "private-notes.md"), "NOTES-SECRET\n");
  writeFileSync(join(ssh, "work.yaml"), "description: YAML-SECRET\n");
  writeFileSync(join(ssh, "system.md"), "SYSTEM-SECRET\n");
  writeFileSync(join(ssh, "Append_System.md"), "APPEND-SECRET\n");
  mkdirSync(join(project, ".pi"), { recursive: true });
  execFileSync("git", ["init", "-q", project]);
  writeFileSync(join(project, "AGENTS.md"), "# root\n");
  if (link === ".pi") {
    execFileSync("rm", ["-r", join(project, ".pi")]);
    symlinkSync(ssh, join(project, ".pi"));
  } else {
    symlinkSync(ssh, join(project, link));
  }
  const agentDir = join(root, "agent");
  mkdirSync(agentDir, { recursive: true });
  return { root, project, home, agentDir, at: join(project, link) };
}

function noNameOfYours(said: string) {
  for (const name of ["private-notes", "work", "system.md", "Append_System", "SECRET"]) {
    expect(said).not.toContain(name);
  }
}

function oneRefusal(diagnostics: readonly { code: string; path?: string }[], at: string) {
  const refused = diagnostics.filter((d) => d.path === at);
  expect(refused.map((d) => d.code)).toEqual(["file-outside-project"]);
}

describe("hostile repository: a project folder linked out is refused before it is listed", () => {
  it("prompts-folder-linked-home: no template name of yours, one warning naming the folder", async () => {
    const s = setup(".pi/prompts");
    const options = { cwd: s.project, agentDir: s.agentDir, home: s.home, projectTrusted: true };
    const loaded = await loadPromptTemplates(options);
    noNameOfYours(JSON.stringify(loaded));
    oneRefusal(loaded.diagnostics, s.at);
    const sync = loadPromptTemplatesSync(options);
    noNameOfYours(JSON.stringify(sync));
    oneRefusal(sync.diagnostics, s.at);
  });

  it("agents-folder-linked-home: no preset name of yours, in check or in an unknown agent's error", async () => {
    const s = setup(".pi/agents");
    const folders = {
      builtinDir: join(s.root, "builtin"),
      agentDir: s.agentDir,
      projectDir: join(s.project, ".pi"),
      trusted: true,
      cwd: s.project,
      home: s.home,
    };
    const checked = await checkPresets(folders);
    noNameOfYours(JSON.stringify(checked));
    oneRefusal(checked, s.at);
    const error = await loadPreset("nosuch", folders).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyspromptError);
    noNameOfYours((error as Error).message);
  });

  it("pi-folder-linked-home: no near-miss hint names a file of yours, one warning naming .pi", async () => {
    const s = setup(".pi");
    const result = await renderSystemPrompt(pinned(s.root, { projectTrusted: true, home: s.home }));
    noNameOfYours(JSON.stringify(result.diagnostics));
    expect(result.text).not.toContain("SECRET");
    oneRefusal(result.diagnostics, s.at);
  });
});
