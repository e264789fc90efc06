import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { explainPrompt } from "../../src/author/explain/explain.js";
import type { ExplainedSetting } from "../../src/author/types.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NOW, pinned, tempDir } from "../api/_helpers.js";
import { cli, pinMachine } from "../cli/_run.js";

pinMachine();

// The layers, lowest first: defaults < the user's sysprompt.yaml < the
// project's .pi/sysprompt.yaml < command-line flags. Each test adds one layer
// and shows it beats the one below, key by key and variable by variable.

const KEYS = new Set([
  "agent",
  "agent-mode",
  "tools",
  "model",
  "tree",
  "tree-depth",
  "git",
  "deadline",
  "max-tokens",
  "rule-sources",
]);

/**
 * Where each `sysprompt.yaml` key not at its default got its value, from
 * explain's settings: `flag` (typed), `option` (a library caller), or the
 * file and line. A key left out is at its default.
 */
function bySetting(settings: readonly ExplainedSetting[]): Record<string, string> {
  return Object.fromEntries(
    settings
      .filter((s) => KEYS.has(s.key) || s.key.startsWith("vars."))
      .map((s) => [
        s.key,
        s.source === "config" ? (s.at ?? "") : s.source === "cli" ? "flag" : "option",
      ]),
  );
}

/** A project whose section shows the variables and whose tools section shows the tools. */
function world(files: { user?: string; project?: string } = {}) {
  const root = tempDir();
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    "project/.pi/sections/team.md",
    "---\norder: 75\ntag: false\n---\nTeam {{vars.team}}, region {{vars.region}}.\n",
  );
  write("agent/.keep", "");
  if (files.user !== undefined) write("agent/sysprompt.yaml", files.user);
  if (files.project !== undefined) write("project/.pi/sysprompt.yaml", files.project);
  return {
    root,
    user: join(root, "agent", "sysprompt.yaml"),
    project: join(root, "project", ".pi", "sysprompt.yaml"),
  };
}

const USER = "model: user-model\ntools: [read]\nvars:\n  team: user-team\n  region: eu\n";
const PROJECT = "tools: [read, bash]\ntree: false\nvars:\n  team: project-team\n";

async function explain(root: string, flags: string[] = []) {
  const run = await cli(root, ["explain", "--json", ...flags]);
  expect(run.code).toBe(0);
  return bySetting((JSON.parse(run.stdout) as { settings: ExplainedSetting[] }).settings);
}

async function section(root: string, name: string, flags: string[] = []) {
  const run = await cli(root, ["render", "--section", name, ...flags]);
  return run.stdout;
}

describe("config precedence, one layer at a time", () => {
  it("without config files every setting is a default, and the variables render empty", async () => {
    const { root } = world();
    expect(await explain(root)).toEqual({});
    expect(await section(root, "team")).toBe("Team , region .");
  });

  it("the user's file beats the defaults", async () => {
    const { root, user } = world({ user: USER });
    expect(await explain(root)).toEqual({
      model: `user:${user}:1`,
      tools: `user:${user}:2`,
      "vars.region": `user:${user}:5`,
      "vars.team": `user:${user}:4`,
    });
    expect(await section(root, "team")).toBe("Team user-team, region eu.");
    expect(await section(root, "tools")).toContain("- read:");
    expect(await section(root, "tools")).not.toContain("- bash:");
  });

  it("the project's file beats the user's key by key; it adds variables but keeps yours", async () => {
    const { root, user, project } = world({ user: USER, project: PROJECT });
    expect(await explain(root)).toEqual({
      model: `user:${user}:1`,
      tools: `project:${project}:1`,
      tree: `project:${project}:2`,
      "vars.region": `user:${user}:5`,
      "vars.team": `user:${user}:4`,
    });
    expect(await section(root, "team")).toBe("Team user-team, region eu.");
    const added = world({ user: USER.replace("  team: user-team\n", ""), project: PROJECT });
    expect((await explain(added.root))["vars.team"]).toBe(`project:${added.project}:4`);
    expect(await section(added.root, "team")).toBe("Team project-team, region eu.");
    expect(await section(root, "tools")).toContain("- bash:");
  });

  it("flags beat the project's file: --tools, --model, --no-tree, --var", async () => {
    const { root, user, project } = world({
      user: USER,
      project: `${PROJECT}tree: true\n`.replace("tree: false\n", ""),
    });
    const flags = ["--tools", "edit", "--no-tree", "--var", "team=flag-team"];
    expect(await explain(root, flags)).toEqual({
      model: `user:${user}:1`,
      tools: "flag",
      tree: "flag",
      "vars.region": `user:${user}:5`,
      "vars.team": "flag",
    });
    expect(await section(root, "team", flags)).toBe("Team flag-team, region eu.");
    expect(await cli(root, ["render", "--section", "workspace_tree", ...flags])).toMatchObject({
      code: 1,
    });
    expect((await explain(root, ["--model", "m"])).model).toBe("flag");
    // Without the flag the project's tree: true applies.
    expect((await explain(root)).tree).toBe(`project:${project}:4`);
  });

  it("an untrusted project's file is not read, and an info says so and how to trust", async () => {
    const { root, user, project } = world({ user: USER, project: PROJECT });
    const run = await cli(root, ["explain", "--json", "--untrusted"]);
    const report = JSON.parse(run.stdout) as {
      settings: ExplainedSetting[];
      diagnostics: { code: string }[];
    };
    expect(bySetting(report.settings)).toEqual({
      model: `user:${user}:1`,
      tools: `user:${user}:2`,
      "vars.region": `user:${user}:5`,
      "vars.team": `user:${user}:4`,
    });
    expect(report.diagnostics.filter((d) => d.code.startsWith("config"))).toEqual([
      {
        level: "info",
        code: "config-untrusted",
        message:
          "sysprompt.yaml of the project not read: the project is not trusted; trust it (drop --untrusted; in pi, allow the project's files) to use its defaults",
        path: project,
      },
    ]);
  });

  it("--no-config reads neither file", async () => {
    const { root } = world({ user: USER, project: PROJECT });
    expect(await explain(root, ["--no-config"])).toEqual({});
  });

  it("the text explain names each setting that is not a default, its value and where it came from", async () => {
    const { root, user } = world({ user: USER, project: PROJECT });
    const run = await cli(root, ["explain", "--model", "m"]);
    const line = run.stdout.split("\n").find((l) => l.startsWith("settings:"));
    // In the registry's order; the flags the test's CLI passes (--agent-dir, --now) are settings too.
    expect(line).toBe(
      `settings: agentDir ${join(root, "agent")} (--agent-dir), vars.region eu (from ${user}:5), ` +
        `vars.team user-team (from ${user}:4), model m (--model), ` +
        // A project's values are quoted (rev53c F1): their end is visible, so is their source.
        'tools "read,bash" (from .pi/sysprompt.yaml:1), tree "false" (from .pi/sysprompt.yaml:2), ' +
        `now ${NOW} (--now)`,
    );
    // What the CLI sets itself (its folder as cwd, reading the config files) is no setting.
    const plain = await cli(world().root, ["explain"], false);
    expect(plain.stdout).toContain(
      "\nsettings: all defaults (no flag or sysprompt.yaml sets one)\n",
    );
  });

  it("explain --json gives each setting's value and origin: the flag typed, or the file and line", async () => {
    const { root, user } = world({ user: "deadline: 800\n" });
    const run = await cli(root, ["explain", "--json", "--agent", "codex", "--no-tree"]);
    const settings = (JSON.parse(run.stdout) as { settings: unknown[] }).settings;
    const agentDir = join(root, "agent");
    expect(settings).toEqual([
      { option: "agentDir", key: "agentDir", value: agentDir, source: "cli", flag: "--agent-dir" },
      { option: "agent", key: "agent", value: "codex", source: "cli", flag: "--agent" },
      { option: "workspaceTree", key: "tree", value: "false", source: "cli", flag: "--no-tree" },
      { option: "now", key: "now", value: NOW, source: "cli", flag: "--now" },
      {
        option: "deadlineMs",
        key: "deadline",
        value: "800",
        source: "config",
        at: `user:${user}:1`,
      },
    ]);
    const text = await cli(root, ["explain", "--agent", "codex", "--no-tree"]);
    expect(text.stdout).toContain(
      `\nsettings: agentDir ${agentDir} (--agent-dir), agent codex (--agent), tree false (--no-tree), now ${NOW} (--now), deadline 800 (from ${user}:1)\n`,
    );
  });

  it("a library caller reads no config file unless it asks (configFiles), and its options beat the files", async () => {
    const { root, user, project } = world({ user: USER, project: PROJECT });
    expect(bySetting((await explainPrompt(pinned(root))).settings)).toEqual({});
    const report = await explainPrompt(
      pinned(root, { configFiles: true, model: "mine", vars: { region: "us" } }),
    );
    expect(bySetting(report.settings)).toEqual({
      model: "option",
      tools: `project:${project}:1`,
      tree: `project:${project}:2`,
      "vars.region": "option",
      "vars.team": `user:${user}:4`,
    });
  });

  it("rule-sources: in a file also decides which rule files explain finds below cwd", async () => {
    const { root } = world({ user: "rule-sources: [cursor]\n" });
    mkdirSync(join(root, "project/sub/pkg"), { recursive: true });
    writeFileSync(join(root, "project/sub/pkg/CLAUDE.local.md"), "Use the pkg's own linter.\n");
    const below = async (options: { configFiles?: boolean }) =>
      (await explainPrompt(pinned(root, options))).rules
        .filter((r) => r.status === "on-touch")
        .map((r) => r.path);
    // Without the file every format is read, Claude Code's among them.
    expect(await below({})).toEqual([join(root, "project/sub/pkg/CLAUDE.local.md")]);
    expect(await below({ configFiles: true })).toEqual([]);
  });

  it("git: true in the user's file turns the git section on, as --git does", async () => {
    // The library, not the CLI helper: git must be on PATH, which the CLI helper's env leaves out.
    const gitSection = async (root: string) => {
      const result = await renderSystemPrompt(
        pinned(root, { configFiles: true, env: { PATH: process.env.PATH ?? "" } }),
      );
      return result.sections.find((s) => s.name === "git")?.text;
    };
    const { root, user } = world({ user: "git: true\n" });
    execFileSync("git", ["init", "-q", "-b", "trunk", join(root, "project")]);
    expect(await gitSection(root)).toContain("- Branch: trunk");
    const report = await explainPrompt(pinned(root, { configFiles: true }));
    expect(bySetting(report.settings).git).toBe(`user:${user}:1`);
    // Without the file the section is off.
    const bare = world();
    execFileSync("git", ["init", "-q", "-b", "trunk", join(bare.root, "project")]);
    expect(await gitSection(bare.root)).toBeUndefined();
  });

  it("agent-mode: in a file picks the preset's tool set for that mode, as --agent-mode does", async () => {
    const { root, project } = world({ project: "agent: gemini-cli\nagent-mode: plan\n" });
    const fromFile = await section(root, "tools");
    expect(fromFile).toBe(
      await section(root, "tools", [
        "--no-config",
        "--agent",
        "gemini-cli",
        "--agent-mode",
        "plan",
      ]),
    );
    expect(fromFile).not.toBe(await section(root, "tools", ["--agent-mode", "default"]));
    expect((await explain(root))["agent-mode"]).toBe(`project:${project}:2`);
  });
});
