import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { NOW, tempDir } from "../api/_helpers.js";

// Review rev108c F6 (LOW), fixed by fx109b: with `CODEX_HOME` set, `export --agent codex` still
// said that as `model_instructions_file in ~/.codex/config.toml` the prompt would be every
// project's, and `export --agent codex --hooks` told you to put the hook in `~/.codex/config.toml`
// and to trust the project there: Codex reads `$CODEX_HOME/config.toml`, not `~/.codex`, so the
// user was sent to a file Codex never reads. The same for Claude Code's `CLAUDE_CONFIG_DIR`
// (`~/.claude/settings.json`) and opencode's `XDG_CONFIG_HOME` (`~/.config/opencode/`). Now the
// advice names the folder as the variable moves it (as MOVED_INSTRUCTION_PLACES reads it: absolute
// or from `~`); a relative `CODEX_HOME` or `CLAUDE_CONFIG_DIR`, which sysprompt does not follow
// (the agent takes it from the folder it starts in), is named as the variable; a relative
// `XDG_CONFIG_HOME` is ignored, as the XDG spec has it and opencode does.

const SELF = "/opt/tools/node_modules/sysprompt/dist/src/cli/sysprompt.cjs";
const NODE = "/opt/node/bin/node";

async function sysprompt(argv: string[], env: Record<string, string>) {
  const root = tempDir();
  mkdirSync(join(root, "project"), { recursive: true });
  writeFileSync(join(root, "project/AGENTS.md"), "Run npm test.\n");
  let stderr = "";
  const [command = "export", ...rest] = argv;
  const pins = rest.includes("--hooks") ? [] : ["--now", NOW];
  const code = await run([command, ...pins, ...rest], {
    stdout: () => {},
    stderr: (t) => {
      stderr += t;
    },
    cwd: join(root, "project"),
    env: { XDG_CACHE_HOME: join(root, "cache"), ...env },
    home: join(root, "home"),
    self: SELF,
    node: NODE,
    machine: { platform: "linux", arch: "x64" },
  });
  return { code, stderr, home: join(root, "home") };
}

describe("rev108c F6: export's advice names the agent's folder where its variable moves it", () => {
  it("export --agent codex, CODEX_HOME absolute: $CODEX_HOME/config.toml", async () => {
    const out = await sysprompt(["export", "--agent", "codex"], { CODEX_HOME: "/srv/codex" });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(
      "as model_instructions_file in /srv/codex/config.toml it would be every project's",
    );
    expect(out.stderr).not.toContain("~/.codex");
  });

  it("export --agent codex, CODEX_HOME from ~: the folder it leads to", async () => {
    const out = await sysprompt(["export", "--agent", "codex"], { CODEX_HOME: "~/cx" });
    expect(out.stderr).toContain(`in ${join(out.home, "cx")}/config.toml it would be`);
    expect(out.stderr).not.toContain("~/.codex");
  });

  it("export --agent codex, CODEX_HOME relative: named as the variable", async () => {
    const out = await sysprompt(["export", "--agent", "codex"], { CODEX_HOME: "rel/cx" });
    expect(out.stderr).toContain("in $CODEX_HOME/config.toml it would be");
    expect(out.stderr).not.toContain("~/.codex");
  });

  it("export --agent codex, CODEX_HOME unset or empty: ~/.codex/config.toml", async () => {
    for (const env of [{}, { CODEX_HOME: "" }] as Record<string, string>[]) {
      const out = await sysprompt(["export", "--agent", "codex"], env);
      expect(out.stderr).toContain("in ~/.codex/config.toml it would be every project's");
    }
  });

  it("export --agent codex --hooks, CODEX_HOME set: the hook and the trust go to $CODEX_HOME/config.toml", async () => {
    const out = await sysprompt(["export", "--agent", "codex", "--hooks"], {
      CODEX_HOME: "/srv/codex",
    });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(
      "add this to /srv/codex/config.toml (or <project>/.codex/config.toml)",
    );
    expect(out.stderr).toContain("under [projects] in /srv/codex/config.toml");
    expect(out.stderr).not.toContain("~/.codex");
  });

  it("export --agent claude-code --hooks, CLAUDE_CONFIG_DIR set: its settings.json", async () => {
    const out = await sysprompt(["export", "--agent", "claude-code", "--hooks"], {
      CLAUDE_CONFIG_DIR: "/srv/claude",
    });
    expect(out.stderr).toContain("or /srv/claude/settings.json (every project)");
    expect(out.stderr).not.toContain("~/.claude/");
  });

  it("export --agent opencode, XDG_CONFIG_HOME set: its opencode.json; a relative one is ignored", async () => {
    const moved = await sysprompt(["export", "--agent", "opencode"], { XDG_CONFIG_HOME: "/srv/x" });
    expect(moved.stderr).toContain("in /srv/x/opencode/opencode.json it would be every project's");
    const relative = await sysprompt(["export", "--agent", "opencode"], { XDG_CONFIG_HOME: "x" });
    expect(relative.stderr).toContain("in ~/.config/opencode/opencode.json it would be");
  });
});
