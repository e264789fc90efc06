import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { quotePath } from "../../src/agents/index.js";
import { hookNode } from "../../src/cli/commands/export.js";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

/** A path with a space and a quote: the snippets must quote it for a shell, then for JSON or TOML. */
const SELF = "/opt/my tools/it's/node_modules/sysprompt/dist/src/cli/sysprompt.cjs";
const QUOTED = `'/opt/my tools/it'\\''s/node_modules/sysprompt/dist/src/cli/sysprompt.cjs'`;
/** The node binary the hook names: given, as a path with a space, so its quoting shows too. */
const NODE = "/opt/node 20/bin/node";
const RUN = `'${NODE}' ${QUOTED}`;

async function exportHooks(agent: string) {
  const root = tempDir();
  let stdout = "";
  let stderr = "";
  const code = await run(["export", "--agent", agent, "--hooks"], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: root,
    env: { XDG_CACHE_HOME: join(root, "cache") },
    home: join(root, "home"),
    self: SELF,
    node: NODE,
  });
  // Nothing is written: not the export, not another agent's settings.
  expect(existsSync(join(root, "cache"))).toBe(false);
  expect(existsSync(join(root, "home"))).toBe(false);
  return { code, stdout, stderr };
}

describe("sysprompt export --agent NAME --hooks", () => {
  it("Claude Code: a PostToolUse group for .claude/settings.json running this sysprompt", async () => {
    const out = await exportHooks("claude-code");
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      hooks: {
        PostToolUse: [
          {
            matcher: "Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS|Bash",
            hooks: [{ type: "command", command: `${RUN} hook claude-code`, timeout: 10 }],
          },
        ],
      },
    });
    expect(out.stderr).toContain(".claude/settings.json");
    expect(out.stderr).toContain("trust dialog");
  });

  it("Codex: [[hooks.PostToolUse]] for config.toml, the command a TOML basic string", async () => {
    const out = await exportHooks("codex");
    expect(out.stdout).toBe(`[[hooks.PostToolUse]]
matcher = "^(Bash|apply_patch|view_image)$"

[[hooks.PostToolUse.hooks]]
type = "command"
command = ${JSON.stringify(`${RUN} hook codex`)}
timeout = 10
`);
    expect(out.stderr).toContain("/hooks");
    expect(out.stderr).toContain('trust_level = "trusted"');
  });

  it("Gemini CLI: an AfterTool group for settings.json, timeout in milliseconds", async () => {
    const out = await exportHooks("gemini-cli");
    const hooks = JSON.parse(out.stdout).hooks.AfterTool[0];
    expect(hooks.hooks).toEqual([
      { name: "sysprompt", type: "command", command: `${RUN} hook gemini-cli`, timeout: 10000 },
    ]);
    expect(new RegExp(hooks.matcher).test("read_file")).toBe(true);
    expect(new RegExp(hooks.matcher).test("read_file_x")).toBe(false);
  });

  it("opencode: a plugin file that re-exports the shipped plugin beside this sysprompt", async () => {
    const out = await exportHooks("opencode");
    expect(out.stdout).toBe(
      'export { SyspromptPlugin } from "file:///opt/my%20tools/it\'s/node_modules/sysprompt/dist/src/integrations/opencode/plugin.js";\n',
    );
    expect(out.stderr).toContain(".config/opencode/plugins/sysprompt.js");
  });

  it("pi or no agent: a usage error", async () => {
    for (const agent of ["pi", "aider"]) {
      const out = await exportHooks(agent);
      expect(out.code).toBe(2);
      expect(out.stdout).toBe("");
      expect(out.stderr).toMatch(
        /^sysprompt: export --hooks needs --agent with one of claude-code, codex, gemini-cli, opencode/,
      );
    }
  });

  it("opencode: the plugin beside the installed package, when sysprompt runs through npm's bin link", async () => {
    const root = tempDir();
    const cli = join(root, "lib", "node_modules", "sysprompt", "dist", "src", "cli");
    mkdirSync(cli, { recursive: true });
    writeFileSync(join(cli, "sysprompt.cjs"), "");
    mkdirSync(join(root, "bin"));
    symlinkSync(join(cli, "sysprompt.cjs"), join(root, "bin", "sysprompt"));
    let stdout = "";
    await run(["export", "--agent", "opencode", "--hooks"], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: () => {},
      cwd: root,
      env: {},
      home: join(root, "home"),
      self: join(root, "bin", "sysprompt"),
    });
    const plugin = join(root, "lib", "node_modules", "sysprompt", "dist", "src", "integrations");
    expect(stdout).toBe(
      `export { SyspromptPlugin } from ${JSON.stringify(pathToFileURL(join(plugin, "opencode", "plugin.js")).href)};\n`,
    );
  });

  it("names the running node by its name on an absolute PATH entry outside the project, else by its own path", async () => {
    const project = tempDir();
    const tools = tempDir();
    mkdirSync(join(tools, "bin"));
    symlinkSync(process.execPath, join(tools, "bin", "node"));
    mkdirSync(join(tools, "other"));
    writeFileSync(join(tools, "other", "node"), "#!/bin/sh\n", { mode: 0o755 });
    const command = async (path: string) => {
      let stdout = "";
      await run(["export", "--agent", "claude-code", "--hooks"], {
        stdout: (t) => {
          stdout += t;
        },
        stderr: () => {},
        cwd: project,
        env: { PATH: path },
        home: join(project, "home"),
        self: "/usr/lib/node_modules/sysprompt/dist/src/cli/sysprompt.cjs",
      });
      return JSON.parse(stdout).hooks.PostToolUse[0].hooks[0].command as string;
    };
    const tail = " /usr/lib/node_modules/sysprompt/dist/src/cli/sysprompt.cjs hook claude-code";
    // The link that leads to the running node: its stable name, not the version's real path.
    expect(await command(`${join(tools, "other")}:${join(tools, "bin")}`)).toBe(
      `${join(tools, "bin", "node")}${tail}`,
    );
    // Another node first on PATH, or none: the running one, by its own path.
    expect(await command(join(tools, "other"))).toBe(
      `${quotePath(process.execPath, "shell")}${tail}`,
    );
    expect(await command("")).toBe(`${quotePath(process.execPath, "shell")}${tail}`);
  });

  it("never names the project's own node (npx with the npm package node): a system node on PATH, else none", async () => {
    const project = tempDir();
    mkdirSync(join(project, ".git"));
    const own = join(project, "node_modules", "node", "bin", "node");
    mkdirSync(join(project, "node_modules", "node", "bin"), { recursive: true });
    writeFileSync(own, "#!/bin/sh\n", { mode: 0o755 });
    const tools = tempDir();
    mkdirSync(join(tools, "bin"));
    symlinkSync(process.execPath, join(tools, "bin", "node"));
    const io = { cwd: project, home: join(tempDir(), "home") };
    const onPath = `${join(project, "node_modules", ".bin")}:${join(tools, "bin")}`;
    expect(await hookNode({ ...io, env: { PATH: onPath } }, own)).toBe(join(tools, "bin", "node"));
    expect(await hookNode({ ...io, env: {} }, own)).toBeUndefined();
    // A node in the project's own folders without a node_modules on the way: the project's too.
    mkdirSync(join(project, "bin"));
    writeFileSync(join(project, "bin", "node"), "#!/bin/sh\n", { mode: 0o755 });
    expect(await hookNode({ ...io, env: {} }, join(project, "bin", "node"))).toBeUndefined();
    // Run from the home folder, a node below it (nvm's) is the user's, named as it is.
    const home = tempDir();
    mkdirSync(join(home, ".nvm"));
    const nvm = join(home, ".nvm", "node");
    writeFileSync(nvm, "#!/bin/sh\n", { mode: 0o755 });
    expect(await hookNode({ cwd: home, home, env: {} }, nvm)).toBe(nvm);
  });
});
