import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheLocation, writeCacheFile } from "../../src/_cache-location.js";
import { sessionLocation, withSessionLock } from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";

// An agent dir you named (--agent-dir, SYSPROMPT_AGENT_DIR) inside a checkout,
// one that ships the team's agent folder: its `cache` a link to `~/.ssh`. The
// caches of a named agent dir go to its `cache/`, which was made with mkdir and
// written through: `sysprompt render` left ~/.ssh/sysprompt-env.json (attack
// review attack18: SYSPROMPT_AGENT_DIR=project/agent, project/agent/cache ->
// ~/.ssh, render wrote 259 bytes there), and the hook's lock and session file
// went there too. The agent dir's `cache/` is now a real folder of yours, never
// a link, as the `sysprompt` cache folder is (hostile-cache-folder-link).

function linkedAgentCache(): { agentDir: string; outside: string } {
  const base = tempDir();
  const outside = join(base, "home", ".ssh");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "id_rsa"), "MARKER-SSH\n");
  const agentDir = join(base, "project", "agent");
  mkdirSync(agentDir, { recursive: true });
  symlinkSync(outside, join(agentDir, "cache"));
  return { agentDir, outside };
}

describe("hostile-agent-dir-cache-link: a named agent dir's cache/ linked out of the project", () => {
  it("the environment and tree caches are not written through it", () => {
    const { agentDir, outside } = linkedAgentCache();
    for (const name of ["env", "tree"]) {
      const location = cacheLocation(name, { agentDir, env: {}, home: "/nonexistent" });
      expect(() => writeCacheFile(location, "{}\n")).toThrow(/cache: a symbolic link/);
    }
    expect(readdirSync(outside)).toEqual(["id_rsa"]);
  });

  it("nor the hook's lock and session file", async () => {
    const { agentDir, outside } = linkedAgentCache();
    const location = sessionLocation("claude-code", "s", { agentDir, env: {}, home: "/x" });
    const { value, locked } = await withSessionLock(location, () => readdirSync(outside));
    expect(value).toEqual(["id_rsa"]);
    expect(locked).toBe(false);
  });

  it("a missing agent dir stays missing; a real one gets its cache/", () => {
    const base = tempDir();
    const missing = join(base, "none");
    expect(() =>
      writeCacheFile(cacheLocation("env", { agentDir: missing, env: {}, home: base }), "{}\n"),
    ).toThrow(/ENOENT/);
    expect(readdirSync(base)).toEqual([]);
    const agentDir = join(base, "agent");
    mkdirSync(agentDir);
    writeCacheFile(cacheLocation("env", { agentDir, env: {}, home: base }), "{}\n");
    expect(readdirSync(join(agentDir, "cache"))).toEqual(["sysprompt-env.json"]);
  });
});
