import { describe, expect, it } from "vitest";
import { runByNameOf, systemFileOf, systemFolders } from "../../src/cli/commands/_output-file.js";

// Review rev58e F2: with XDG_RUNTIME_DIR unset (`sudo -i`, cron, CI), `-o
// /run/user/0/systemd/user/a.service` was written, and in another home folder (root writing
// /home/dev/…) `.local/share/systemd/user/` and `.config/environment.d/` were written while
// `.config/systemd/` was refused. Judged at the functions: a test never writes /run.

describe("hostile-output-runtime-units: -o refuses systemd's user folders by their default names", () => {
  it("/run/user/<uid>/systemd is the system's whether or not XDG_RUNTIME_DIR names it", async () => {
    const folders = await systemFolders({}, "/root");
    for (const path of [
      "/run/user/0/systemd/user/a.service",
      "/run/user/1000/systemd/generator/x",
      "/run/user/1000/../1000/systemd/transient/x.service",
    ]) {
      expect(systemFileOf(path, folders), path).toBe(
        `a file in systemd's runtime folder ${path.startsWith("/run/user/0") ? "/run/user/0" : "/run/user/1000"}/systemd`,
      );
    }
    for (const path of [
      "/run/user/1000/prompt.md",
      "/run/user/x/systemd/a",
      "/srv/run/user/0/systemd/a",
    ]) {
      expect(systemFileOf(path, folders), path).toBeUndefined();
    }
  });

  it("another home's .local/share/systemd/ and .config/environment.d/ are run by name", () => {
    for (const path of [
      "/home/dev/.local/share/systemd/user/c.service",
      "/home/dev/.config/environment.d/d.conf",
    ]) {
      expect(runByNameOf(path), path).toBeDefined();
    }
    expect(runByNameOf("/home/dev/.local/share/notes/systemd.md")).toBeUndefined();
  });
});
