import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev52b F10: `-o` refuses the files programs run by name under `~/.config` (git's,
// fish's, systemd's user units, autostart entries) and any dot-path under your home folder,
// but with `XDG_CONFIG_HOME` set outside your home folder those programs read them there, and
// `render -o $XDG_CONFIG_HOME/fish/conf.d/prompt.fish` (sourced line by line), `git/config`,
// `autostart/p.desktop`, `systemd/user/p.service`, `environment.d/p.conf` were all written with
// the repository's text. `$XDG_CONFIG_HOME`, `$XDG_DATA_HOME` and `$XDG_STATE_HOME` (set, absolute)
// now stand for `~/.config`, `~/.local/share` and `~/.local/state`, but sysprompt's own folders.
// Slow tier: a dozen renders.

const CONFIG_FILES = [
  "fish/conf.d/prompt.fish",
  "autostart/p.desktop",
  "git/config",
  "systemd/user/p.service",
  "environment.d/p.conf",
];

function setup() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent", "xdg/config", "xdg/data/applications", "xdg/state"])
    mkdirSync(join(root, dir), { recursive: true });
  for (const f of CONFIG_FILES) mkdirSync(join(root, "xdg/config", f, ".."), { recursive: true });
  const env = {
    XDG_CONFIG_HOME: join(root, "xdg/config"),
    XDG_DATA_HOME: join(root, "xdg/data"),
    XDG_STATE_HOME: join(root, "xdg/state"),
    XDG_CACHE_HOME: join(root, "xdg/cache"),
  };
  return { root, env };
}

describe("hostile-output-xdg-folders: -o treats the XDG base folders as the folders of your home folder they stand for", () => {
  it("a file programs read by name there, or any file there, is refused (exit 2), nothing written", async () => {
    const { root, env } = setup();
    const targets = [
      ...CONFIG_FILES.map((f) => join(root, "xdg/config", f)),
      join(root, "xdg/data/applications/p.desktop"),
      join(root, "xdg/state/notes.md"),
    ];
    for (const target of targets) {
      const out = await cli(root, join(root, "p"), ["render", "-o", target], { env });
      expect([target, out.code]).toEqual([target, 2]);
      expect(existsSync(target)).toBe(false);
    }
    const fish = await cli(
      root,
      join(root, "p"),
      ["render", "-o", join(root, "xdg/config/fish/conf.d/prompt.fish")],
      { env },
    );
    expect(fish.stderr).toContain(
      `a file in a .config/fish/ folder ($XDG_CONFIG_HOME, ${join(root, "xdg/config")}, is your ~/.config)`,
    );
  });

  it("sysprompt's own export folder under $XDG_CACHE_HOME, and a plain file elsewhere, are still written", async () => {
    const { root, env } = setup();
    const plain = join(root, "notes.md");
    expect((await cli(root, join(root, "p"), ["render", "-o", plain], { env })).code).toBe(0);
    expect(existsSync(plain)).toBe(true);
    const out = await cli(root, join(root, "p"), ["export", "--agent", "codex"], { env });
    expect(out.code).toBe(0);
    expect(existsSync(join(root, "xdg/cache/sysprompt/export"))).toBe(true);
  });

  it("unset, relative, or holding your home folder, an XDG variable stands for nothing", async () => {
    const { root } = setup();
    const target = join(root, "xdg/config/notes.md");
    const envs: Record<string, string>[] = [
      {},
      { XDG_CONFIG_HOME: "xdg/config" },
      { XDG_DATA_HOME: root },
    ];
    for (const env of envs) {
      const out = await cli(root, join(root, "p"), ["render", "-o", target], { env });
      expect([env, out.code]).toEqual([env, 0]);
    }
  });
});
