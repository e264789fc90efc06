import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillWatchFolders } from "../../src/author/watch/_watch-folders.js";
import { tempDir } from "../api/_helpers.js";

// `watch` takes one inotify watch per folder under the skill roots. A skills
// root that is a link to / was walked from / (512 folders of the system
// watched). A root inside the project whose real path leaves it is not
// walked, and a link among a root's folders that leads out of it is not
// followed.

describe("hostile repository: what watch walks under the skill roots", () => {
  it("a project's skills root that links out of the project is not walked", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const outside = join(root, "outside");
    for (const d of ["a", "b", "c"]) mkdirSync(join(outside, d), { recursive: true });
    mkdirSync(join(project, ".agents"), { recursive: true });
    symlinkSync(outside, join(project, ".agents", "skills"));
    const watched = await skillWatchFolders([join(project, ".agents", "skills")], 512, project);
    expect(watched).toEqual({ folders: [], diagnostics: [] });
  });

  it("a link among a root's folders that leads out of the root is not followed", async () => {
    const root = tempDir();
    const skills = join(root, "project", ".pi", "skills");
    const outside = join(root, "outside");
    mkdirSync(join(outside, "x", "y"), { recursive: true });
    mkdirSync(join(skills, "own"), { recursive: true });
    symlinkSync(outside, join(skills, "out"));
    const watched = await skillWatchFolders([skills], 512, join(root, "project"));
    expect(watched.folders).toEqual([skills, join(skills, "own")]);
  });

  it("a link inside a root is followed once, a loop ends, and a root inside another is walked once", async () => {
    const root = tempDir();
    const skills = join(root, "project", ".pi", "skills");
    mkdirSync(join(skills, "group", "deep"), { recursive: true });
    symlinkSync(join(skills, "group"), join(skills, "again"));
    symlinkSync(skills, join(skills, "group", "deep", "loop"));
    const watched = await skillWatchFolders(
      [skills, join(skills, "group")],
      512,
      join(root, "project"),
    );
    // "again" is group by its real path, so group itself is passed over.
    expect(watched).toEqual({
      folders: [skills, join(skills, "again"), join(skills, "again", "deep")],
      diagnostics: [],
    });
  });
});
