import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isWithin } from "../../src/_paths.js";
import { watchTargets } from "../../src/author/watch/_watch-targets.js";
import { preparePrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// `watch` watches each layer's folder with its sections/, partials/ and
// agents/, and the slash-command template folders. A trusted project's
// `.pi/sections` linked to a folder of your home, `.pi/partials` to
// `~/.ssh` and `.pi/prompts` to `/` were watched through the links (one
// inotify watch each, a re-render on every change there), though the door
// refuses to read any of them. A project folder whose real path leaves the
// project is now watched by its name in the project folder above it.

describe("hostile repository: layer and template folders linked out of the project", () => {
  it("are not watched through the link, only by their names", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const home = join(root, "home");
    const outside = join(root, "outside");
    const dirs = [
      join(project, ".git"),
      join(project, ".pi"),
      join(home, ".ssh"),
      join(home, "agent"),
      outside,
    ];
    for (const d of dirs) {
      mkdirSync(d, { recursive: true });
    }
    writeFileSync(join(home, ".ssh", "id_rsa"), "secret\n");
    writeFileSync(join(outside, "x.md"), "# x\n");
    symlinkSync(outside, join(project, ".pi", "sections"));
    symlinkSync(join(home, ".ssh"), join(project, ".pi", "partials"));
    symlinkSync(home, join(project, ".pi", "agents"));
    symlinkSync("/", join(project, ".pi", "prompts"));
    const options = {
      cwd: project,
      agentDir: join(home, "agent"),
      home,
      env: {},
      now: "2026-01-15T10:00:00Z",
      machine: { platform: "linux", arch: "x64" },
      workspaceTree: false,
    } as const;
    const { targets } = await watchTargets(options, await preparePrompt(options));
    const inProject = targets.filter((t) => isWithin(t.dir, project));
    // Every folder watched in the project is the project's own, not one a link leads to.
    for (const t of inProject) expect(isWithin(realpathSync(t.dir), project)).toBe(true);
    const dotPi = targets.filter((t) => t.dir === join(project, ".pi"));
    const names = new Set(dotPi.flatMap((t) => [...(t.names ?? ["*"])]));
    for (const name of ["sections", "partials", "agents", "prompts"]) {
      expect(names.has(name) || names.has("*")).toBe(true);
    }
    // "/" is watched for its context file names only (a folder above the project), never whole.
    const whole = targets.filter((t) => t.names === undefined).map((t) => t.dir);
    expect(whole).not.toContain("/");
  });

  it("a layer folder inside the project is watched as before", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, ".pi", "sections"), { recursive: true });
    mkdirSync(join(project, "shared"), { recursive: true });
    mkdirSync(join(root, "agent"), { recursive: true });
    symlinkSync(join(project, "shared"), join(project, ".pi", "partials"));
    const options = {
      cwd: project,
      agentDir: join(root, "agent"),
      home: join(root, "home"),
      env: {},
      now: "2026-01-15T10:00:00Z",
      machine: { platform: "linux", arch: "x64" },
      workspaceTree: false,
    } as const;
    const { targets } = await watchTargets(options, await preparePrompt(options));
    const folders = targets.filter((t) => t.names === undefined).map((t) => t.dir);
    expect(folders).toContain(join(project, ".pi", "sections"));
    // A link that stays in the project is followed, as the door reads through it.
    expect(folders).toContain(join(project, ".pi", "partials"));
  });
});
