import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rulesFixture } from "../gather/rules/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

// cwd is project/ (sub/'s rules are below it, so not read): every format there, one manual rule.
describe("rule files in explain, sections and list", () => {
  it("explain names every rule file found with its fate", async () => {
    const root = rulesFixture("every-format", "project");
    const { code, stdout } = await cli(root, ["explain"]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    const start = lines.findIndex((l) => l.startsWith("rule files:"));
    expect(lines[start]).toBe("rule files: 22 found, 19 kept");
    expect(lines.slice(start + 1, start + 4)).toEqual([
      `  inlined    ${root}/agent/rules/mine.md  sysprompt, always`,
      "  inlined    .cursorrules  cursor, always",
      "  inlined    .windsurf/rules/commits.md  windsurf, always",
    ]);
    expect(lines).toContain("  deduped    .windsurfrules  windsurf, always  (.cursorrules)");
    expect(lines).toContain(
      "  disabled   .clinerules/off.md  cline, always  (paths: [] (Cline never loads it))",
    );
  });

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
