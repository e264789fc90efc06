import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates } from "../../src/prompt-templates/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { put, sharedFolder } from "./_nobody.js";

// A file anyone may write (mode 0666, made under umask 000), lying in a folder anyone may write
// to (a 1777 share such as /tmp) was read when you or root owned it, while the same file owned
// by another user was refused (file-foreign-owner): anyone may rewrite its text between two
// renders, as they may plant a file of their own there (review rev107a F3). It is planted too,
// with words saying why; the same file not writable by others, or a 0666 file in a folder of
// yours, is read as before. Only a sticky folder: a drive mounted with every mode (WSL's
// /mnt/c, a umask-000 volume) holds a project's own files at 0666 in 0777 folders, and they
// are the project's (the lead's amendment: the first fix refused such a project's AGENTS.md).

const MARK = "ANYONE-CAN-REWRITE-ME";

function layout(mode: number) {
  const root = tempDir();
  const shared = sharedFolder(root, "shared2", 0o1777);
  const project = join(shared, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  put(join(project, "AGENTS.md"), "# mine PROJECT-107\n");
  put(join(shared, "AGENTS.md"), `# ${MARK}\n`);
  chmodSync(join(shared, "AGENTS.md"), mode);
  put(join(shared, ".pi/prompts/deploy.md"), `${MARK} $1\n`);
  chmodSync(join(shared, ".pi/prompts/deploy.md"), mode);
  // A team's prompts folder anyone may write to, sticky as the share is.
  chmodSync(join(shared, ".pi/prompts"), 0o1777);
  return { root, shared, project };
}

const foreign = (diagnostics: readonly { code: string; path?: string; message: string }[]) =>
  diagnostics.filter((d) => d.code === "file-foreign-owner");

describe("hostile-planted-writable-own-file: your 0666 file in a 1777 share", () => {
  it("an ancestor's AGENTS.md and a prompt template anyone may rewrite are refused, said why", async () => {
    const { root, shared, project } = layout(0o666);
    const result = await renderSystemPrompt(pinned(root, { cwd: project }));
    expect(result.text).not.toContain(MARK);
    expect(result.text).toContain("PROJECT-107");
    const said = foreign(result.diagnostics).find((d) => d.path === join(shared, "AGENTS.md"));
    expect(said?.message).toBe(
      `not loaded: anyone may rewrite it (world-writable) and it lies in ${shared}, a folder anyone may write to (world-writable), so it is not the repository's`,
    );
    const templates = await loadPromptTemplates({
      cwd: shared,
      agentDir: join(root, "agent"),
      home: join(root, "home"),
    });
    expect(JSON.stringify(templates.templates)).not.toContain(MARK);
    expect(foreign(templates.diagnostics).map((d) => d.path)).toEqual([
      join(shared, ".pi/prompts/deploy.md"),
    ]);
  });

  it("the same files not writable by others are read; a 0666 file in a folder of yours is read", async () => {
    const { root, project } = layout(0o644);
    chmodSync(join(project, "AGENTS.md"), 0o666);
    const result = await renderSystemPrompt(pinned(root, { cwd: project }));
    expect(result.text).toContain(MARK);
    expect(result.text).toContain("PROJECT-107");
    expect(foreign(result.diagnostics)).toEqual([]);
  });

  it("a project whose folders and files have every mode, not sticky (WSL's /mnt/c), reads its own files", async () => {
    const root = tempDir();
    const project = join(root, "wsl");
    mkdirSync(join(project, ".git"), { recursive: true });
    put(join(project, "AGENTS.md"), "# WSL-PROJECT-107\n");
    put(join(project, "sub/AGENTS.md"), "# WSL-SUB-107\n");
    for (const f of ["AGENTS.md", "sub/AGENTS.md"]) chmodSync(join(project, f), 0o666);
    for (const d of ["", "sub", ".git"]) chmodSync(join(project, d), 0o777);
    const result = await renderSystemPrompt(pinned(root, { cwd: project }));
    expect(result.text).toContain("WSL-PROJECT-107");
    expect(foreign(result.diagnostics)).toEqual([]);
  });
});
