import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionLocation, withSessionLock } from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";

// XDG_CACHE_HOME set to a folder inside a checkout (hostile-cache-folder-link)
// and the project's `.cache/sysprompt` a link to `~/.ssh`: the hook's session
// file was refused there, but its lock, taken first, was created through the
// link (an empty hook-<agent>-<hash>.json.lock in ~/.ssh, removed after the
// call; a stale one there was removed as the lock's own). Attack review
// attack18: `sysprompt hook claude-code` with such a cache folder,
// strace: openat("…/.cache/sysprompt/hook-claude-code-….json.lock",
// O_CREAT|O_EXCL) = 18 inside ~/.ssh.

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

describe("hostile-hook-lock-cache-link: the hook's lock is never made through a linked cache folder", () => {
  it("no lock file appears in the link's target while the session is updated", async () => {
    const { env, home, outside } = linkedCache();
    const location = sessionLocation("claude-code", "s", { env, home });
    const { value, locked } = await withSessionLock(location, () => readdirSync(outside));
    expect(value).toEqual(["id_rsa"]);
    expect(locked).toBe(false);
    expect(readdirSync(outside)).toEqual(["id_rsa"]);
  });

  it("a real cache folder still gets its lock", async () => {
    const base = tempDir();
    const env = { XDG_CACHE_HOME: join(base, "cache") };
    const location = sessionLocation("claude-code", "s", { env, home: base });
    const { value, locked } = await withSessionLock(location, () =>
      readdirSync(join(base, "cache", "sysprompt")),
    );
    expect(locked).toBe(true);
    expect(value).toHaveLength(1);
    expect(value[0]).toMatch(/^hook-claude-code-[0-9a-f]{32}\.json\.lock$/);
  });
});
