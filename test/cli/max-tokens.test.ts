import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RenderResult } from "../../src/types.js";
import { tempDir } from "../api/_helpers.js";
import { budgetProject } from "../budget/_project.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

describe("--max-tokens", () => {
  it.each(["0", "-5", "1.5", "many", ""])(
    "%j is bad usage (exit 2), nothing on stdout",
    async (value) => {
      const root = budgetProject(tempDir());
      expect(await cli(root, ["render", "--max-tokens", value])).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: --max-tokens expects a whole number of tokens, 1 or more, such as 8000, got "${value}"\n${usageHint("render")}`,
      });
    },
  );

  it("renders within the budget; --json has the budget, stderr the cuts", async () => {
    const root = budgetProject(tempDir());
    const json = await cli(root, ["render", "--tree", "--max-tokens", "1014", "--json"]);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as RenderResult;
    // The temp folder's random name is in the prompt and moves the count a little: no exact cuts here.
    expect([result.budget?.fits, result.budget?.cuts[0]?.step]).toEqual([true, "tree-lines"]);
    expect(result.budget?.tokens).toBeLessThanOrEqual(1014);
    const text = await cli(root, ["render", "--tree", "--max-tokens", "1014"]);
    expect(text.stdout).toBe(result.text);
    expect(text.stderr.split("\n").filter((l) => l.includes("[budget-cut]"))).toHaveLength(
      result.budget?.cuts.length ?? -1,
    );
  });

  it("an impossible budget still prints the prompt; only --strict makes it exit 1", async () => {
    const root = budgetProject(tempDir());
    const loose = await cli(root, ["render", "--max-tokens", "1"]);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toContain("[budget-exceeded]");
    expect((await cli(root, ["render", "--max-tokens", "1", "--strict"])).code).toBe(1);
  });
  it("a step that would lengthen the prompt is not taken; explain says so", async () => {
    const root = tempDir();
    const skill = join(root, "project", ".pi", "skills", "pdf");
    mkdirSync(skill, { recursive: true });
    // A description shorter than the note that replaces all descriptions.
    writeFileSync(join(skill, "SKILL.md"), "---\nname: pdf\ndescription: PDFs.\n---\nRead PDFs.\n");
    const json = await cli(root, ["render", "--max-tokens", "1", "--json"]);
    const result = JSON.parse(json.stdout) as RenderResult;
    expect(result.budget?.cuts.map((c) => c.step)).not.toContain("skill-descriptions");
    expect(result.budget?.skipped.map((s) => [s.section, s.step])).toEqual([
      ["skills", "skill-descriptions"],
    ]);
    expect(result.budget?.skipped[0]?.added).toBeGreaterThan(0);
    const explained = await cli(root, ["explain", "--max-tokens", "1"]);
    expect(explained.stdout).toMatch(
      /\n {2}skipped skills \(skill-descriptions\): skills listed by name and location only \(1 skill\) would add ~\d+ tokens\n/,
    );
  });
});
