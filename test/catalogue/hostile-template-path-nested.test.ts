import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates } from "../../src/prompt-templates/load.js";
import { tempDir } from "../api/_helpers.js";

// loadPromptTemplates' `paths` naming the project's own prompts folder (`.pi/prompts` from
// its top, `../.pi/prompts` from a tarball's subfolder) read it as the user's: a template the
// tree linked to ~/.ssh/id_rsa was loaded with the key as its body, which `/name` puts in
// your message, untrusted too. A template path into the project is now read within it, by
// the rule --append-system-prompt's path is (namedProjectPath). Review rev38d F4 (the same
// gap in the prompt-template paths); from a clone of yours in the tarball's services/,
// review rev39a F1.

describe("hostile-template-path-nested: a template path into the project is read within it", () => {
  for (const [where, sub, named] of [
    ["from the top", "", ".pi/prompts"],
    ["from a tarball's subfolder", "src", "../.pi/prompts"],
    // Your own clone in a tarball's services/, as its README says (review rev39a F1).
    ["from your clone in a tarball's subfolder", "services/mine", "../../.pi/prompts"],
  ] as const) {
    it(`${where}: a template linked out of the tree is not read; the tree's own is`, async () => {
      const root = tempDir();
      const tree = join(root, "project");
      mkdirSync(join(root, "home", ".ssh"), { recursive: true });
      writeFileSync(join(root, "home", ".ssh", "id_rsa"), "SECRET-MARKER-KEY\n");
      mkdirSync(join(tree, ".pi", "prompts"), { recursive: true });
      mkdirSync(join(tree, "src"));
      if (sub.startsWith("services")) {
        mkdirSync(join(tree, sub, ".git"), { recursive: true });
        writeFileSync(join(tree, sub, ".git", "HEAD"), "ref: refs/heads/main\n");
      }
      symlinkSync(join(root, "home", ".ssh", "id_rsa"), join(tree, ".pi", "prompts", "key.md"));
      writeFileSync(join(tree, ".pi", "prompts", "plain.md"), "PLAIN-TEMPLATE\n");
      const loaded = await loadPromptTemplates({
        cwd: join(tree, sub),
        home: join(root, "home"),
        agentDir: join(root, "agent"),
        env: {},
        projectTrusted: false,
        includeDefaults: false,
        paths: [named],
      });
      const bodies = loaded.templates.map((t) => t.content).join("\n");
      expect(bodies).not.toContain("SECRET-MARKER-KEY");
      expect(bodies).toContain("PLAIN-TEMPLATE");
      expect(loaded.diagnostics.map((d) => d.code)).toContain("file-outside-project");
    });
  }

  it("your own prompts folder named by path stays yours, through your link", async () => {
    const root = tempDir();
    const tree = join(root, "project");
    mkdirSync(join(tree, "src"), { recursive: true });
    mkdirSync(join(root, "home", "Dropbox", "prompts"), { recursive: true });
    writeFileSync(join(root, "home", "Dropbox", "prompts", "mine.md"), "MY-TEMPLATE\n");
    symlinkSync(join(root, "home", "Dropbox", "prompts"), join(root, "home", "prompts"));
    const loaded = await loadPromptTemplates({
      cwd: join(tree, "src"),
      home: join(root, "home"),
      agentDir: join(root, "agent"),
      env: {},
      projectTrusted: false,
      includeDefaults: false,
      paths: ["~/prompts"],
    });
    expect(loaded.templates.map((t) => t.content).join("\n")).toContain("MY-TEMPLATE");
  });
});
