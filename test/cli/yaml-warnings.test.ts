import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

// A YAML warning used to go to process.emitWarning, which Node prints on
// stderr as "(node:123) [TAG_RESOLVE_FAILED] YAMLWarning: …" — outside the
// diagnostics, and even under --json. Each file kind that has frontmatter is
// covered: a section, a partial, a skill and a slash-command template.

function project(files: Record<string, string>): string {
  const root = tempDir();
  mkdirSync(join(root, "agent"), { recursive: true });
  mkdirSync(join(root, "home"), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const TAGGED = {
  "project/.pi/sections/team.md": "---\norder: 65\ndescription: !custom hi\n---\nTeam: platform.\n",
  "project/.pi/partials/sig.md": "---\nnote: !draft yes\n---\nThe platform team.\n",
  "project/.pi/skills/pdf/SKILL.md":
    "---\nname: pdf\ndescription: !custom Read PDF forms.\n---\nUse it.\n",
  "project/.pi/prompts/fix.md":
    "---\ndescription: Fix it\nargument-hint: !hint <bug>\n---\nFix $1.\n",
};

const warning = (root: string, path: string, line: number, column: number, tag: string) =>
  `warning ${join(root, path)}:${line}:${column} [frontmatter-yaml-warning] YAML frontmatter: Unresolved tag: ${tag}; the tag is ignored\n`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("YAML warnings reach the CLI as diagnostics, never as process warnings", () => {
  it("render: one located diagnostic line per warning on stderr; nothing emitted", async () => {
    const emitted = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const root = project(TAGGED);
    const { code, stdout, stderr } = await cli(root, ["render"]);
    expect(code).toBe(0);
    expect(stdout).toContain("<team>\nTeam: platform.\n</team>");
    expect(stderr).toBe(
      [
        warning(root, "project/.pi/sections/team.md", 3, 14, "!custom"),
        warning(root, "project/.pi/partials/sig.md", 2, 7, "!draft"),
        warning(root, "project/.pi/skills/pdf/SKILL.md", 3, 14, "!custom"),
      ].join(""),
    );
    expect(emitted).not.toHaveBeenCalled();
  });

  it("render --json: the warnings are in diagnostics; nothing emitted", async () => {
    const emitted = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const root = project(TAGGED);
    const { code, stdout, stderr } = await cli(root, ["render", "--json"]);
    expect([code, stderr]).toEqual([0, ""]);
    expect(JSON.parse(stdout).diagnostics.map((d: { path: string }) => d.path)).toEqual([
      join(root, "project/.pi/sections/team.md"),
      join(root, "project/.pi/partials/sig.md"),
      join(root, "project/.pi/skills/pdf/SKILL.md"),
    ]);
    expect(emitted).not.toHaveBeenCalled();
  });

  it("list: the template's and the skill's warnings; nothing emitted", async () => {
    const emitted = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const root = project(TAGGED);
    const { code, stderr } = await cli(root, ["list", "--agent-dir", join(root, "agent")], false);
    expect(code).toBe(0);
    expect(stderr).toBe(
      [
        warning(root, "project/.pi/prompts/fix.md", 3, 16, "!hint"),
        warning(root, "project/.pi/skills/pdf/SKILL.md", 3, 14, "!custom"),
      ].join(""),
    );
    expect(emitted).not.toHaveBeenCalled();
  });
});
