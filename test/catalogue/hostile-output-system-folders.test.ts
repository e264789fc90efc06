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

  // Review rev57a F2: `XDG_RUNTIME_DIR=/tmp` (set by some container images and CI runners) made
  // every `-o` under /tmp a system file, a project's own `./prompt.md` there too. The runtime
  // folder is a scratch folder: only its `systemd/` is run from. A folder every user may write
  // to (sticky, root's) stands for nothing as an XDG entry, as `/` does.
  it("of $XDG_RUNTIME_DIR only systemd/ is the system's; a shared sticky entry stands for nothing", async () => {
    const env = {
      XDG_RUNTIME_DIR: "/tmp",
      XDG_CONFIG_DIRS: "/tmp:/var/tmp",
      XDG_DATA_DIRS: "/tmp",
    };
    const folders = await systemFolders(env, "/var/empty-home");
    for (const path of ["/tmp/p/prompt.md", "/tmp/prompt.md", "/var/tmp/x/out.md"]) {
      expect(systemFileOf(path, folders), path).toBeUndefined();
    }
    expect(systemFileOf("/tmp/systemd/user/x.service", folders)).toBe(
      "a file in $XDG_RUNTIME_DIR's /tmp/systemd",
    );
  });

  // Decided with rev57a F2: `WORKDIR /usr/app` is as common as `/usr/src/app`; of /usr only the
  // system's own folders are refused, and all of /usr/local but its src.
  it("a project in /usr/app is not the system's; /usr's own folders and /usr/local are", async () => {
    const folders = await systemFolders({}, "/root");
    for (const path of ["/usr/app/prompt.md", "/usr/myservice/out/p.md", "/usr/prompt.md"]) {
      expect(systemFileOf(path, folders), path).toBeUndefined();
    }
    for (const path of [
      "/usr/bin/x",
      "/usr/share/bash-completion/completions/x",
      "/usr/libexec/x",
      "/usr/etc/profile.d/x.sh",
      "/usr/local/bin/x",
      "/usr/local/lib/python3.12/dist-packages/x.pth",
      "/usr/local/Homebrew/Library/x.rb",
    ]) {
      expect(systemFileOf(path, folders), path).toBeDefined();
    }
  });

  // rev103b F4: macOS's system-wide configuration of every user's programs (Claude Code's managed
  // memory `/Library/Application Support/ClaudeCode/CLAUDE.md`, managed preferences) was not a
  // system folder: run as root, `-o` wrote there.
  it("macOS's /Library/Application Support and its preferences folders are the system's", async () => {
    const folders = await systemFolders({}, "/var/root");
    for (const path of [
      "/Library/Application Support/ClaudeCode/CLAUDE.md",
      "/Library/Preferences/com.example.plist",
      "/Library/Managed Preferences/com.example.plist",
    ]) {
      expect(systemFileOf(path, folders), path).toBeDefined();
    }
    expect(systemFileOf("/Library/WebServer/Documents/p.md", folders)).toBeUndefined();
  });
});
