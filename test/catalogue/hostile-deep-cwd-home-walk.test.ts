import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentDirInProject, projectHome } from "../../src/gather/environment/index.js";
import { tempDir } from "../api/_helpers.js";

// Review rev44a F2 (medium): `projectHome`'s search for a repository around
// the working folder (when it shares a non-system folder with the home
// folder) heard no deadline, and since hg43 asks four names a folder: from a
// cwd 1,900 folders deep outside the home folder, a render --deadline 200
// returned, then the process stayed busy to 3.6 s CPU (the skills, rules and
// environment steps' walks ran on after it). The render's signal now stops it.

describe("hostile-deep-cwd: the home folder's root search hears the render's deadline", () => {
  it("projectHome and agentDirInProject stop (reject with the signal's reason) once the signal fired", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const cwd = join(root, "work", ...Array.from({ length: 40 }, () => "d"));
    mkdirSync(home, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    const reason = new Error("deadline passed");
    const fired = AbortSignal.abort(reason);
    await expect(projectHome([cwd], home, fired)).rejects.toBe(reason);
    await expect(agentDirInProject(join(home, ".pi"), cwd, home, fired)).rejects.toBe(reason);
    // With no signal, or one not fired, the answer is as before: no repository around cwd, so the
    // home folder beside it (sharing a folder the system did not make) is the project's.
    expect(await projectHome([cwd], home)).toEqual([home]);
    expect(await projectHome([cwd], home, new AbortController().signal)).toEqual([home]);
  });
});
