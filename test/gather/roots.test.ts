import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles, renderSystemPrompt, SyspromptError } from "../../src/index.js";
import { copyScenario, pinned, tempDir } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "../cli/_run.js";

/** The builtin workspace_roots section's first line. */
const ROOTS_INTRO =
  "Besides the working directory, this workspace has these folders. This list is the current one: where an earlier message names other workspace folders, this list replaces it. Refer to files in these folders by absolute path.";

pinMachine();

describe("extra workspace roots", () => {
  it("each root's ancestors are searched after cwd's; a folder or real file shared with cwd's chain loads once", async () => {
    const root = copyScenario("context", "roots-merged");
    // lib/AGENTS.md is a link to the project's file: the same real path, loaded once.
    symlinkSync("../project/AGENTS.md", join(root, "lib", "CLAUDE.md"));
    expect(
      await loadContextFiles({
        cwd: join(root, "project"),
        agentDir: join(root, "agent"),
        roots: [join(root, "shared", "ui"), "../lib"],
      }),
    ).toEqual({
      files: [
        { path: `${root}/AGENTS.md`, content: "Workspace-wide: use pnpm.", origin: "project" },
        { path: `${root}/project/AGENTS.md`, content: "The app.", origin: "project" },
        {
          path: `${root}/shared/AGENTS.md`,
          content: "Shared code: no side effects.",
          origin: "project",
        },
        {
          path: `${root}/shared/ui/AGENTS.md`,
          content: "UI components: one per file.",
          origin: "project",
        },
      ],
      diagnostics: [],
    });
  });

  it("the workspace_roots section lists them; a root equal to cwd or given twice is listed once", async () => {
    const root = copyScenario("context", "roots-merged");
    const result = await renderSystemPrompt(
      pinned(root, { roots: ["../shared/ui", "../lib", "../lib/", "."], noContextFiles: true }),
    );
    expect(result.sections.find((s) => s.name === "workspace_roots")?.text).toBe(
      `<workspace_roots>\n${ROOTS_INTRO}\n- ${root}/shared/ui\n- ${root}/lib\n</workspace_roots>`,
    );
  });

  it("a root that is missing or not a folder is a SyspromptError", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"));
    writeFileSync(join(root, "file.md"), "x");
    await expect(renderSystemPrompt(pinned(root, { roots: ["../file.md"] }))).rejects.toThrow(
      new SyspromptError(
        "bad-argument",
        '--root / roots: "../file.md" is not a folder; pass the folder that holds the files',
      ),
    );
    await expect(
      loadContextFiles({ cwd: join(root, "project"), agentDir: root, roots: ["../nope"] }),
    ).rejects.toThrow('--root / roots: "../nope" does not exist (ENOENT); pass an existing folder');
    await expect(
      renderSystemPrompt(pinned(root, { roots: "../x" as unknown as string[] })),
    ).rejects.toThrow("roots: must be an array of strings");
  });

  it("CLI: --root is repeatable; a --root that is not a folder exits 2", async () => {
    const root = copyScenario("context", "roots-merged");
    const ok = await cli(root, [
      "render",
      "--root",
      "../shared/ui",
      "--root",
      "../lib",
      "--section",
      "workspace_roots",
    ]);
    expect(ok).toEqual({
      code: 0,
      stdout: `<workspace_roots>\n${ROOTS_INTRO}\n- ${root}/shared/ui\n- ${root}/lib\n</workspace_roots>`,
      stderr: "",
    });
    expect(await cli(root, ["render", "--root", "AGENTS.md"])).toEqual({
      code: 2,
      stdout: "",
      // Resolved from the shell's folder, so the message names the path it checked.
      stderr: `sysprompt: --root / roots: "${root}/project/AGENTS.md" is not a folder; pass the folder that holds the files\n${usageHint("render")}`,
    });
  });
});
