import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toPosix } from "../../src/_paths.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { cwdSection, pinned, tempDir } from "../api/_helpers.js";

describe("toPosix", () => {
  it("turns backslashes into slashes only where they separate folders (Windows)", () => {
    expect(toPosix("C:\\Users\\pat\\project", "\\")).toBe("C:/Users/pat/project");
    // On POSIX a backslash is an ordinary character of a file name.
    expect(toPosix("/tmp/pro\\ject/a.md", "/")).toBe("/tmp/pro\\ject/a.md");
  });
});

describe.skipIf(process.platform === "win32")("a path with a backslash on POSIX", () => {
  it("is rendered as it is in the cwd, context file and skill location", async () => {
    const root = join(tempDir(), "pro\\ject");
    const cwd = join(root, "project");
    const skill = join(cwd, ".pi", "skills", "notes", "SKILL.md");
    mkdirSync(join(cwd, ".pi", "skills", "notes"), { recursive: true });
    writeFileSync(skill, "---\nname: notes\ndescription: Take notes.\n---\nWrite them down.\n");
    writeFileSync(join(cwd, "AGENTS.md"), "Be kind.\n");
    const result = await renderSystemPrompt(pinned(root));
    const text = (name: string) => result.sections.find((s) => s.name === name)?.text;
    expect(text("cwd")).toBe(cwdSection(cwd));
    expect(
      text("project_context")?.includes(`<repository_instructions path="${cwd}/AGENTS.md">\n`),
    ).toBe(true);
    expect(text("skills")?.includes(`<location>${skill}</location>`)).toBe(true);
  });
});
