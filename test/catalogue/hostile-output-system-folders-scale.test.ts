import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev56d F6: run as root (a container, CI), `-o` wrote the system's start-up files whose
// home counterparts it refuses (`/etc/profile.d/x.sh` beside `~/.profile`), and any file in the
// folders `$XDG_CONFIG_DIRS`, `$XDG_DATA_DIRS` and `$XDG_RUNTIME_DIR` name (autostart entries,
// systemd's user units), which `$XDG_CONFIG_HOME`'s are refused for. The /etc half is judged at
// the function (a test never writes there); the XDG half through the CLI, in a temporary folder.

describe("hostile-output-system-folders: -o refuses the system's configuration and the XDG system folders (slow tier: CLI runs)", () => {
  it("render -o into $XDG_CONFIG_DIRS, $XDG_DATA_DIRS or $XDG_RUNTIME_DIR: exit 2, nothing written", async () => {
    const root = tempDir();
    const targets = [
      "cd/autostart/x.desktop",
      "cd/systemd/user/x.service",
      "dd/applications/mimeapps.list",
      "run/systemd/user/x.service",
    ];
    for (const dir of ["p/.git", "home", "agent", ...targets.map((t) => join(t, ".."))]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    const env = {
      XDG_CONFIG_DIRS: `${join(root, "cd")}:/etc/xdg`,
      XDG_DATA_DIRS: `${join(root, "dd")}:/usr/share`,
      XDG_RUNTIME_DIR: join(root, "run"),
    };
    for (const target of targets.map((t) => join(root, t))) {
      const out = await cli(root, join(root, "p"), ["render", "-o", target], { env });
      expect([target, out.code]).toEqual([target, 2]);
      expect(existsSync(target)).toBe(false);
    }
    const out = await cli(root, join(root, "p"), ["render", "-o", join(root, targets[0] ?? "")], {
      env,
    });
    expect(out.stderr).toContain(
      `a file in $XDG_CONFIG_DIRS's ${join(root, "cd")}, where programs`,
    );
  });
});
