import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// rev58a F3 (low): a `.gitignore` that is a FIFO was taken as no ignore file, silently, though an
// ignore file that is there but cannot be read refuses what is below it (git itself blocks on it:
// no verdict). `--untrusted` imported `sub/secret.md` below it. Now it is refused, the FIFO named;
// a folder named `.gitignore` stays no ignore file, as for git.

describe("hostile-gitignore-fifo: a FIFO .gitignore is an ignore file not read", () => {
  it("refuses an untrusted import below it, naming it; a folder .gitignore is no ignore file", async () => {
    const root = tempDir();
    const project = join(root, "project");
    writeFiles(project, {
      ".git/HEAD": "ref: refs/heads/main\n",
      "AGENTS.md": "# p\n@sub/secret.md\n@dir/kept.md\n",
      "sub/secret.md": "IGN-BELOW-MARKER\n",
      "dir/kept.md": "KEPT-BELOW-FOLDER\n",
    });
    mkdirSync(join(project, ".git", "objects"));
    mkdirSync(join(project, ".git", "refs"));
    execFileSync("mkfifo", [join(project, "sub", ".gitignore")]);
    mkdirSync(join(project, "dir", ".gitignore"));
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).not.toContain("IGN-BELOW-MARKER");
    expect(result.text).toContain("KEPT-BELOW-FOLDER");
    const said = result.diagnostics.find((d) => d.message.includes("@sub/secret.md"));
    expect(said?.message).toContain("sub/.gitignore could not be read (not a regular file");
  });
});
