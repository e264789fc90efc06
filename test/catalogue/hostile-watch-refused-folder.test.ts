import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { watchTargets } from "../../src/author/watch/_watch-targets.js";
import { preparePrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";
import { gitRepository } from "./_nested.js";

// `watch` judged a project's layer folder by its real path alone (a second copy of the door's
// rule): `.pi/sections` linked into a clone of its own inside the project (`vendor/kit`, its
// real path inside the project) was watched whole, though the door refuses to list it, and a
// change there re-rendered. Watch now asks the door's `folderRefused`, as every listing does:
// such a folder is not watched, only its name in the folder above (its replacement is seen).

describe("hostile repository: a layer folder the door refuses is not watched", () => {
  it("watch-refused-folder: a .pi/sections linked into a nested clone is watched by its name only", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const home = join(root, "home");
    gitRepository(project, { whole: true });
    const kit = join(project, "vendor", "kit");
    gitRepository(kit, { whole: true });
    mkdirSync(join(kit, "sections"), { recursive: true });
    writeFileSync(join(kit, "sections", "x.md"), "# kit\n");
    mkdirSync(join(project, ".pi", "partials"), { recursive: true });
    mkdirSync(join(home, "agent"), { recursive: true });
    symlinkSync(join("..", "vendor", "kit", "sections"), join(project, ".pi", "sections"));
    const options = {
      cwd: project,
      agentDir: join(home, "agent"),
      home,
      env: {},
      now: "2026-01-15T10:00:00Z",
      machine: { platform: "linux", arch: "x64" },
      workspaceTree: false,
    } as const;
    const prepared = await preparePrompt(options);
    // The door refuses the folder: the render says so.
    expect(prepared.diagnostics.map((d) => d.code)).toContain("file-outside-project");
    const { targets } = await watchTargets(options, prepared);
    const dirs = targets.map((t) => t.dir);
    expect(dirs).not.toContain(join(project, ".pi", "sections"));
    expect(dirs).not.toContain(join(kit, "sections"));
    const dotPi = targets.filter((t) => t.dir === join(project, ".pi"));
    expect(dotPi.some((t) => t.names?.has("sections") === true || t.names === undefined)).toBe(
      true,
    );
    // The project's own folder next to it is watched whole, as before.
    const whole = targets.filter((t) => t.names === undefined).map((t) => t.dir);
    expect(whole).toContain(join(project, ".pi", "partials"));
  });
});
