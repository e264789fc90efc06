import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// For an untrusted project, a file git ignores is private: no link and no
// @import brings it into the prompt. Which files git ignores was decided by
// the repository's .gitignore too, and git lets a .gitignore take back what
// .git/info/exclude names (`!credentials.json`): so your credentials file,
// kept out of git by your own exclude file, was read through the project's
// `.cursorrules` link and its `@credentials.json` import. What the exclude
// file names now stays private whatever the repository's files say.

describe("hostile repository: a .gitignore that takes back your exclude file's entries", () => {
  it("does not make your excluded file readable to an untrusted project", async () => {
    const base = tempDir();
    const project = join(base, "project");
    mkdirSync(join(project, ".git", "info"), { recursive: true });
    writeFileSync(join(project, ".git", "info", "exclude"), "credentials.json\n");
    writeFileSync(join(project, "credentials.json"), '{"token": "MARKER-CRED"}\n');
    writeFileSync(join(project, ".gitignore"), "!credentials.json\n");
    writeFileSync(join(project, "AGENTS.md"), "# Project\n@credentials.json\n");
    symlinkSync("credentials.json", join(project, ".cursorrules"));
    const agentDir = join(base, "home", ".pi", "agent");
    mkdirSync(agentDir, { recursive: true });
    const result = await renderSystemPrompt({
      cwd: project,
      agentDir,
      home: join(base, "home"),
      projectTrusted: false,
    });
    expect(result.text).not.toContain("MARKER-CRED");
    const refused = result.diagnostics.filter((d) => /private|refused/.test(d.code));
    expect(refused.map((d) => d.code).sort()).toEqual(["import-private", "rule-refused"]);
    expect(refused.every((d) => d.message.includes("excluded by .git/info/exclude"))).toBe(true);
  });

  it("a trusted project still reads it", async () => {
    const base = tempDir();
    const project = join(base, "project");
    mkdirSync(join(project, ".git", "info"), { recursive: true });
    writeFileSync(join(project, ".git", "info", "exclude"), "notes.md\n");
    writeFileSync(join(project, "notes.md"), "Team notes.\n");
    writeFileSync(join(project, "AGENTS.md"), "# Project\n@notes.md\n");
    const agentDir = join(base, "home", ".pi", "agent");
    mkdirSync(agentDir, { recursive: true });
    const result = await renderSystemPrompt({ cwd: project, agentDir, home: join(base, "home") });
    expect(result.text).toContain("Team notes.");
  });
});
