import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { rulesFixture } from "../gather/rules/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

// cwd is project/: every format there; sub/.s rules are below it (not read; sub/pkg/ has some that come on touch).
describe("rule files in explain, sections and list", () => {
  it("explain names every rule file found with its fate", async () => {
    const root = rulesFixture("every-format", "project");
    const { code, stdout } = await cli(root, ["explain"]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    const start = lines.findIndex((l) => l.startsWith("rule files:"));
    expect(lines[start]).toBe("rule files: 34 found, 25 kept");
    expect(lines.slice(start + 1, start + 4)).toEqual([
      `  inlined    ${root}/agent/rules/mine.md  sysprompt, always`,
      "  inlined    .cursorrules  cursor, always",
      "  inlined    .windsurf/rules/commits.md  windsurf, always",
    ]);
    expect(lines).toContain("  deduped    .windsurfrules  windsurf, always  (.cursorrules)");
    expect(lines).toContain(
      "  disabled   .clinerules/off.md  cline, always  (paths: [] (Cline never loads it))",
    );
  }, 30_000);

  it("sections and list show a manual rule, which the prompt does not", async () => {
    const root = rulesFixture("every-format", "project");
    const cwd = join(root, "project", "sub");
    const sections = await cli(root, ["sections", "--cwd", cwd]);
    expect(sections.stdout).toContain(
      `\nmanual rules (not in the prompt):\n  cursor  ${cwd}/.cursor/rules/manual.md\n`,
    );
    const list = await cli(root, ["list", "--cwd", cwd, "--agent-dir", join(root, "agent")], false);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`\\n  manual +manual +cursor ${cwd}/\\.cursor/rules/manual\\.md\\n`),
    );
    const render = await cli(root, ["render", "--cwd", cwd]);
    expect(render.stdout).not.toContain("manual.md");
  });
});

/** Every file under `dir`, relative to it, forward slashes, `.git` left out. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === ".git"
      ? []
      : e.isDirectory()
        ? filesUnder(join(dir, e.name), base)
        : [relative(base, join(dir, e.name)).split("\\").join("/")],
  );
}

// The fixture holds a file of every supported format: rule files from the
// project root down to cwd (project/sub), and below cwd the ones an agent
// finds there too (sub/pkg: Windsurf's and Claude Code's). Nothing silent.
describe("explain accounts for every file of every format", () => {
  it("names each one: in the prompt, listed, manual, on touch, or not used with the reason", async () => {
    const root = rulesFixture("every-format", "project");
    const cwd = join(root, "project", "sub");
    const { code, stdout } = await cli(root, ["explain", "--cwd", cwd]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    const start = lines.findIndex((l) => l.startsWith("rule files:"));
    const end = lines.findIndex((l, i) => i > start && l === "");
    const named = new Map(
      lines.slice(start + 1, end).flatMap((l) => {
        const m = /^ {2}(\S+) +(\S+) {2}(.*)$/.exec(l);
        return m?.[1] && m[2] && m[3] ? [[m[2], `${m[1]}  ${m[3]}`] as const] : [];
      }),
    );
    // Paths at or below cwd are shown relative to it, the others whole.
    const shown = (rel: string) =>
      rel.startsWith("sub/") ? rel.slice("sub/".length) : `${root}/project/${rel}`;
    const sources = filesUnder(join(root, "project")).filter((f) => !f.endsWith(".ts"));
    const agentDir = filesUnder(join(root, "agent")).map((f) => `agent/${f}`);
    expect(sources.length + agentDir.length).toBe(39);
    const accounted = sources.map((f) => [f, named.get(shown(f)) ?? "NOT NAMED"]);
    expect(accounted.filter(([, what]) => what === "NOT NAMED")).toEqual([]);
    expect(Object.fromEntries(accounted)).toEqual({
      ".claude/CLAUDE.md": "inlined  claude, always",
      ".claude/rules/api.md": "listed  claude, glob",
      ".claude/rules/changelog.md": "inlined  claude, always",
      ".clinerules-debug": `disabled  roo  (${ROO_MODE("debug")})`,
      ".clinerules/docs.md": "listed  cline, glob",
      ".clinerules/lint.md": "inlined  cline, always",
      ".clinerules/off.md": "disabled  cline, always  (paths: [] (Cline never loads it))",
      ".continue/prompts/review.md":
        "disabled  continue, always  (invokable: true (a slash command in Continue, not a rule))",
      ".continue/rules/docs.md": "inlined  continue, always",
      ".cursorrules": "inlined  cursor, always",
      ".gemini/GEMINI.md":
        "disabled  gemini  (Gemini CLI reads GEMINI.md from ~/.gemini only, never from a project's .gemini folder)",
      ".github/copilot-instructions.md": "inlined  copilot, always",
      ".github/instructions/all.instructions.md": "inlined  copilot, always",
      ".github/instructions/review.instructions.md":
        'disabled  copilot, always  (excludeAgent: "coding-agent" (Copilot keeps it from coding agents))',
      ".github/instructions/ts.instructions.md": "listed  copilot, glob",
      ".kiro/steering/components.md": "listed  kiro, glob",
      ".kiro/steering/deploy.md": "listed  kiro, model",
      ".kiro/steering/product.md": "inlined  kiro, always",
      ".roo/rules-code/tests.md": `disabled  roo  (${ROO_MODE("code")})`,
      ".roo/rules/deps.md": "inlined  roo, always",
      ".roorules":
        "disabled  roo  (Roo reads .roorules only when .roo/rules holds no file, and it holds some)",
      ".roorules-architect": `disabled  roo  (${ROO_MODE("architect")})`,
      ".rules": "inlined  zed, always",
      ".windsurf/rules/commits.md": "inlined  windsurf, always",
      ".windsurf/rules/python.md": "listed  windsurf, glob",
      ".windsurfrules": `deduped  windsurf, always  (${root}/project/.cursorrules)`,
      "AGENT.md": "inlined  continue, always",
      "AGENTS.local.md": "inlined  roo, always",
      "CLAUDE.local.md": "inlined  claude, always",
      "GEMINI.md": "inlined  gemini, always",
      "sub/.cursor/rules/db.mdc": "listed  cursor, model",
      "sub/.cursor/rules/manual.md": "manual  cursor, manual",
      "sub/.cursor/rules/testing.mdc": "inlined  cursor, always",
      "sub/.cursor/rules/web/react.mdc": "listed  cursor, glob",
      "sub/.pi/rules/own.md": "inlined  sysprompt, always",
      "sub/pkg/.claude/rules/sql.md": "on-touch  claude  (pkg)",
      "sub/pkg/.windsurf/rules/pkg.md": "on-touch  windsurf  (pkg)",
      "sub/pkg/CLAUDE.local.md": "on-touch  claude  (pkg)",
    });
  }, 30_000);
});

const ROO_MODE = (mode: string) =>
  `Roo adds it only in its "${mode}" mode, and this prompt is in no Roo mode`;

describe("list and a flood of one kind of rule problem", () => {
  // list printed every diagnostic of the rule files unbounded: 30 rule files
  // linked out of the project were 30 rule-refused lines (1,000 files allowed).
  it("shows 20 of one code, then counts the rest once", async () => {
    const { mkdirSync, symlinkSync, writeFileSync } = await import("node:fs");
    const { tempDir } = await import("../api/_helpers.js");
    const root = tempDir();
    const rules = join(root, "project", ".cursor", "rules");
    mkdirSync(rules, { recursive: true });
    mkdirSync(join(root, "project", ".git"));
    mkdirSync(join(root, "agent"));
    writeFileSync(join(root, "outside.mdc"), "---\nalwaysApply: true\n---\nOutside.\n");
    for (let i = 0; i < 30; i++) {
      symlinkSync(join(root, "outside.mdc"), join(rules, `r${String(i).padStart(2, "0")}.mdc`));
    }
    const project = join(root, "project");
    const { stderr } = await cli(
      root,
      ["list", "--cwd", project, "--agent-dir", join(root, "agent")],
      false,
    );
    const lines = stderr.split("\n");
    const refused = lines.filter((l) => l.includes("[rule-refused]"));
    expect(refused.filter((l) => !l.includes("[diagnostics-capped]"))).toHaveLength(20);
    expect(stderr).toContain("… and 10 more [rule-refused] diagnostics not shown");
  });
});
