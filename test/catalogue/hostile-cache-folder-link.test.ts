import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheLocation, writeCacheFile } from "../../src/_cache-location.js";
import { defaultExportPath } from "../../src/agents/index.js";
import { defaultSandboxParent, makeSandbox } from "../../src/author/sandbox.js";
import { writeTarget } from "../../src/cli/commands/export.js";
import { tempDir } from "../api/_helpers.js";

// sysprompt's cache folder is `$XDG_CACHE_HOME/sysprompt`, and a CI job or a
// user may set XDG_CACHE_HOME to a folder inside a checkout. The project then
// holds the cache folder: its `.cache/sysprompt`, a link to `~/.ssh`, made
// `render` write `env.json` there, `export` write `export/claude-code/
// system-prompt.md` there, and `explain --simulate` copy the project into a
// `simulate` folder there (each followed the link: written outside every file
// asked for). The cache folder and the folders sysprompt makes in it are now
// real folders of the user's, never a link; what is above it (`~/.cache`) is
// the user's as named.

const SPEC = {
  file: "system-prompt.md",
  setting: "--system-prompt-file {path}",
  where: "the command line",
  quote: "shell",
} as const;

/** A project holding the cache folder, and the folder its `sysprompt` link leads to. */
function linkedCache(): { env: Record<string, string>; home: string; outside: string } {
  const base = tempDir();
  const outside = join(base, "home", ".ssh");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "id_rsa"), "MARKER-SSH\n");
  const project = join(base, "project");
  mkdirSync(join(project, ".cache"), { recursive: true });
  symlinkSync(outside, join(project, ".cache", "sysprompt"));
  return { env: { XDG_CACHE_HOME: join(project, ".cache") }, home: join(base, "home"), outside };
}

describe("hostile repository: sysprompt's cache folder in the project, a link out of it", () => {
  it("the environment and tree caches are not written through it", () => {
    const { env, home, outside } = linkedCache();
    for (const name of ["env", "tree"]) {
      expect(() => writeCacheFile(cacheLocation(name, { env, home }), "{}\n")).toThrow(
        /sysprompt: a symbolic link/,
      );
    }
    expect(readdirSync(outside)).toEqual(["id_rsa"]);
  });

  it("export refuses the default export folder behind it", async () => {
    const { env, home, outside } = linkedCache();
    const project = join(env.XDG_CACHE_HOME as string, "..");
    const { path, root } = defaultExportPath("claude-code", SPEC, { env, home, project });
    const target = {
      agent: "claude-code",
      path,
      within: root,
      cache: true,
      spec: SPEC,
      setting: "",
    };
    await expect(writeTarget(target, "prompt\n")).rejects.toThrow(/a symbolic link/);
    expect(readdirSync(outside)).toEqual(["id_rsa"]);
  });

  it("explain --simulate and snapshot make no sandbox behind it", async () => {
    const { env, home, outside } = linkedCache();
    const project = join(env.XDG_CACHE_HOME as string, "..");
    const parent = defaultSandboxParent(env, home);
    await expect(makeSandbox(project, parent)).rejects.toThrow(/a symbolic link/);
    expect(readdirSync(outside)).toEqual(["id_rsa"]);
  });

  it("a real cache folder is made and written as before", () => {
    const base = tempDir();
    const env = { XDG_CACHE_HOME: join(base, "cache") };
    writeCacheFile(cacheLocation("env", { env, home: base }), "{}\n");
    expect(readdirSync(join(base, "cache", "sysprompt"))).toEqual(["env.json"]);
  });
});
