import { describe, expect, it } from "vitest";
import { systemFileOf, systemFolders } from "../../src/cli/commands/_output-file.js";

// Review rev56d F6: run as root (a container, CI), `-o` wrote the system's start-up files whose
// home counterparts it refuses (`/etc/profile.d/x.sh` beside `~/.profile`), and any file in the
// folders `$XDG_CONFIG_DIRS`, `$XDG_DATA_DIRS` and `$XDG_RUNTIME_DIR` name (autostart entries,
// systemd's user units), which `$XDG_CONFIG_HOME`'s are refused for. The /etc half is judged at
// the function (a test never writes there); the XDG half through the CLI, in a temporary folder.

const SYSTEM = [
  "/etc/profile.d/zz-agent.sh",
  "/etc/profile",
  "/etc/bash.bashrc",
  "/etc/environment",
  "/etc/sudoers.d/zz",
  "/etc/cron.d/zz",
  "/etc/xdg/autostart/zz.desktop",
  "/etc/systemd/system/zz.service",
  "/etc/../etc/profile",
  "/usr/lib/systemd/system/zz.service",
  "/usr/local/etc/sudoers.d/zz",
  "/lib/udev/rules.d/99-zz.rules",
  "/var/spool/cron/crontabs/root",
  "/run/systemd/system/zz.service",
];

describe("hostile-output-system-folders: -o refuses the system's configuration and the XDG system folders", () => {
  it("a file in /etc, /usr, /lib, cron's spool is the system's; a project in /usr/src is not", async () => {
    const folders = await systemFolders({}, "/root");
    for (const path of SYSTEM) expect(systemFileOf(path, folders), path).toBeDefined();
    for (const path of ["/usr/src/app/build/p.md", "/usr/local/src/p/out.md", "/srv/p/out.md"]) {
      expect(systemFileOf(path, folders), path).toBeUndefined();
    }
    expect(systemFileOf("etc/profile", folders)).toBeUndefined();
  });

  it("an XDG system folder stands for nothing when it is / or holds your home folder", async () => {
    const env = { XDG_DATA_DIRS: "/:/home:relative/share", XDG_RUNTIME_DIR: "/home/u" };
    const folders = await systemFolders(env, "/home/u");
    expect(systemFileOf("/home/u/notes.md", folders)).toBeUndefined();
    expect(systemFileOf("/srv/x.md", folders)).toBeUndefined();
  });
});
