import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { swaps } from "./_folder-swap.js";

// Review rev89h F1: a rules folder (`.cursor/rules`) and a skills root (`.pi/skills`) were
// checked by their path (realpath, then the door) and listed again by their path
// (`walkFolders` → `Walk.folder` → `readListing(path)`), so one swapped for a link to a folder of
// yours in between printed your file and folder names in its warnings (2 of 20-30 runs). Every
// folder a walk lists is now opened and held first, the held folder's real path judged, and the
// listing read through that descriptor; a walk that enters no link opens a subfolder without
// following one. As in hostile-project-folder-swap, the swap is made just before the listing
// opens the folder (the listing's `opendirSync`), once per folder.

vi.mock("../../src/_io.js", async (importOriginal) =>
  (await import("./_folder-swap.js")).swappingIo(await importOriginal()),
);

function setup() {
  const root = tempDir();
  const project = join(root, "project");
  const home = join(root, "home");
  const notes = join(home, "notes");
  mkdirSync(join(notes, "PRIVATE-SUBDIR-NAME"), { recursive: true });
  writeFileSync(join(notes, "secret-plan-alpha.mdc"), "---\nalwaysApply: true\n---\nSECRET\n");
  writeFileSync(join(notes, "private-diary-beta.md"), "SECRET\n");
  writeFileSync(join(notes, "PRIVATE-SUBDIR-NAME", "SKILL.md"), "---\nname: x\n---\nSECRET\n");
  execFileSync("git", ["init", "-q", project]);
  writeFileSync(join(project, "AGENTS.md"), "# root\n");
  mkdirSync(join(project, ".cursor", "rules", "sub"), { recursive: true });
  writeFileSync(join(project, ".cursor", "rules", "a.mdc"), "---\nalwaysApply: true\n---\nA\n");
  writeFileSync(
    join(project, ".cursor", "rules", "sub", "b.mdc"),
    "---\nalwaysApply: true\n---\nB\n",
  );
  mkdirSync(join(project, ".pi", "skills", "projskill"), { recursive: true });
  writeFileSync(
    join(project, ".pi", "skills", "projskill", "SKILL.md"),
    "---\nname: projskill\ndescription: d\n---\nbody\n",
  );
  mkdirSync(join(root, "agent"), { recursive: true });
  return { root, project, home, notes };
}

function noNameOfYours(said: string) {
  for (const name of ["secret-plan", "private-diary", "PRIVATE-SUBDIR", "SECRET", "/notes"])
    expect(said).not.toContain(name);
}

describe("hostile-rules-skills-folder-swap: a rules folder or skills root swapped after its check lists nothing of yours", () => {
  it.each([
    [".cursor/rules", true],
    [".cursor/rules", false],
    [".cursor/rules/sub", true],
    [".pi/skills", true],
  ])("%s (trusted %s): the render names no file or folder of yours", async (rel, trusted) => {
    const s = setup();
    const at = join(s.project, ...rel.split("/"));
    swaps.set(at, s.notes);
    const result = await renderSystemPrompt(
      pinned(s.root, { projectTrusted: trusted, home: s.home }),
    );
    expect(swaps.has(at)).toBe(false);
    noNameOfYours(JSON.stringify(result.diagnostics));
    noNameOfYours(result.text);
  });
});
