import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev60c F7 (low). docs/template-data.md said a skill's description
// comes "in one line", but a skill's YAML description of several lines is
// printed over several lines inside `<description>` (escaped, a fence it
// opens closed before `</description>`): what the index was built to do
// (`closedDescription`, src/skills/format.ts). Decided: the description is
// printed as its file writes it, and the doc says so, not the other way round.

describe("hostile repository: a skill's description of several lines", () => {
  it("is printed over its lines, its fence closed, and the data reference says it may be", async () => {
    const root = tempDir();
    const dir = join(root, "project", ".pi", "skills", "zz");
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(root, "project", ".git"));
    writeFileSync(join(dir, "SKILL.md"), '---\nname: zz\ndescription: "d\\n```"\n---\nBody.\n');
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    const skills = result.sections.find((s) => s.name === "skills")?.text ?? "";
    expect(skills).toContain("    <description>d\n```\n```\n\n</description>\n    <location>");
    const reference = readFileSync(
      join(import.meta.dirname, "../../docs/template-data.md"),
      "utf8",
    );
    const row = reference.split("\n").find((line) => line.startsWith("| `skills[].description`"));
    expect(row).toMatch(/one line or several/);
    expect(row).not.toMatch(/in one line;/);
  });
});
