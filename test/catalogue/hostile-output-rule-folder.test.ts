import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneBesideProject, fromEvil } from "./_output-link.js";

// Review rev98a F3 (medium): rev96d F2's refusal of an instructions file out of the project
// compared only the target's last name with the context files' names and the first names of the
// rule locations (`.cursor`, `.github`, …), which no rule file is named. So from an untrusted
// clone, `render --untrusted -o ../proj/.github/copilot-instructions.md` (and `.cursor/rules/
// team.mdc`, `.windsurf/rules/team.md`, seven more, `export --out` too) was written into another
// project out of your home, exit 0, and that project's own render then showed the repository's
// line as its Copilot rule. Now a target out of the project whose path, read from any of its
// folders, is a place a declared rule format loads (RULE_FORMATS) is refused as rev96d F2's are.

const setup = () => cloneBesideProject();

const RULE_PLACES = [
  ".github/copilot-instructions.md",
  ".github/instructions/team.instructions.md",
  ".github/instructions/a/b/team.instructions.md",
  ".cursor/rules/team.mdc",
  ".cursor/rules/deep/team.md",
  ".windsurf/rules/team.md",
  ".kiro/steering/team.md",
  ".roo/rules/team.md",
  ".roo/rules-code/team.md",
  ".continue/rules/team.md",
  ".continue/prompts/team.md",
  ".clinerules/team.md",
  ".cline/rules/team.md",
  ".copilot/instructions/team.instructions.md",
  ".codeium/windsurf/memories/global_rules.md",
];

describe("hostile-output-rule-folder: -o/--out into another project's rule folder", () => {
  it.each(RULE_PLACES)("render --untrusted -o <other project>/%s: refused, exit 2", async (rel) => {
    const root = setup();
    const target = join(root, "wk/proj", rel);
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(
      `and agents load ${rel} by themselves in every project below ${join(root, "wk/proj")}`,
    );
    expect(out.stderr).toContain("pass --force to write it there knowingly");
    expect(existsSync(target)).toBe(false);
  });

  it.each([".claude/rules/team.md", ".pi/rules/team.md"])(
    "%s: refused as before, as an agent's configuration folder",
    async (rel) => {
      const root = setup();
      const target = join(root, "wk/proj", rel);
      const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain("own configuration");
      expect(existsSync(target)).toBe(false);
    },
  );

  it("read from any folder: the same place below the folder of projects is refused", async () => {
    const root = setup();
    const target = join(root, "wk/.cursor/rules/team.mdc");
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(`below ${join(root, "wk")} (a place of cursor's rules)`);
    expect(existsSync(target)).toBe(false);
  });

  it("export --out is refused the same way", async () => {
    const root = setup();
    for (const rel of [".github/copilot-instructions.md", ".cursor/rules/a.mdc"]) {
      const target = join(root, "wk/proj", rel);
      const out = await fromEvil(root, [
        "export",
        "--untrusted",
        "--agent",
        "claude-code",
        "--out",
        target,
      ]);
      expect([rel, out.code]).toEqual([rel, 2]);
      expect(out.stderr).toContain(`and agents load ${rel} by themselves`);
      expect(existsSync(target)).toBe(false);
    }
  });

  it("--force writes it knowingly, with a warning", async () => {
    const root = setup();
    const target = join(root, "wk/proj/.github/copilot-instructions.md");
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target, "--force"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain("sysprompt: WARNING: ");
    expect(out.stderr).toContain("written there as --force asks");
    expect(readFileSync(target, "utf8")).toContain("REPO-WORDS");
  });

  it.each([
    ".github/notes.md",
    ".github/instructions/team.md",
    ".cursor/notes.md",
    ".cursor/rules/team.txt",
    ".windsurf/rules/a/team.md",
  ])("a file no rule format loads in an agent's folder, %s: refused as before", async (rel) => {
    const root = setup();
    const target = join(root, "wk/proj", rel);
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain("configuration");
    expect(out.stderr).not.toContain("agents load");
    expect(existsSync(target)).toBe(false);
  });

  it("a file no rule format loads elsewhere, docs/rules/team.md: written as before", async () => {
    const root = setup();
    const target = join(root, "wk/proj/docs/rules/team.md");
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).toContain("REPO-WORDS");
  });

  it("a non-prose name in such a folder stays refused: .github/workflows/x.yml", async () => {
    const root = setup();
    const target = join(root, "wk/proj/.github/workflows/x.yml");
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(2);
    expect(existsSync(target)).toBe(false);
  });

  it("in the project it is the project's own rule file: written as before", async () => {
    const root = setup();
    for (const rel of [".github/copilot-instructions.md", ".cursor/rules/team.mdc"]) {
      const out = await fromEvil(root, ["render", "--untrusted", "-o", rel]);
      expect([rel, out.code, out.stderr]).toEqual([rel, 0, expect.any(String)]);
      expect(readFileSync(join(root, "evil", rel), "utf8")).toContain("REPO-WORDS");
    }
  });
});
