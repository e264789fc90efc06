import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// rev64d F5: opencode's config loader replaces `{env:NAME}` in the raw text, then takes
// `/\{file:[^}]+\}/g` before parsing the JSON. An archive that unpacks a file `kit` beside the
// project folder `kit}x` made `export --agent opencode --out p.md` print `{file:…/kit}x/p.md}`,
// which opencode reads as `{file:…/kit}`: the archive's text became the build agent's prompt.

/** The file opencode's loader reads for the printed line, as its source takes it. */
function opencodeReads(line: string, configDir: string): string[] {
  const text = line.replace(/\{env:([^}]+)\}/g, () => "");
  return (text.match(/\{file:[^}]+\}/g) ?? []).map((token) => {
    const path = token.slice("{file:".length, -1);
    return isAbsolute(path) ? path : join(configDir, path);
  });
}

function setup(project: string) {
  const root = tempDir();
  for (const dir of [`${project}/.git`, "home", "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "kit"), "ATTACKER PROMPT\n");
  return { root, project: join(root, project) };
}

describe("hostile-export-opencode-file-brace: the {file:} line names the file written", () => {
  // A folder with a `\` is refused: opencode reads it as `/` (hostile-export-opencode-file-run).
  it.each(["kit}x", "kit{env:HOME}x", 'kit"x'])(
    "in a project folder %j: --out p.md is named from the project's top",
    async (name) => {
      const { root, project } = setup(name);
      const result = await cli(root, project, ["export", "--agent", "opencode", "--out", "p.md"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`"agent": { "build": { "prompt": "{file:./p.md}" } }\n`);
      const read = opencodeReads(result.stdout, project);
      expect(read).toEqual([join(project, "p.md")]);
      expect(readFileSync(read[0] as string, "utf8")).toMatch(/^You are opencode/);
    },
  );

  it("a brace inside the project too: refused, exit 2, nothing written", async () => {
    const { root, project } = setup("kit}x");
    mkdirSync(join(project, "a}b"));
    const result = await cli(root, project, ["export", "--agent", "opencode", "--out", "a}b/p.md"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
    expect(result.stderr).toContain("opencode's setting cannot name");
    expect(existsSync(join(project, "a}b/p.md"))).toBe(false);
  });
});
