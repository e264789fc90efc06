import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// rev82a F4: a trusted project's `.pi/sections` (or `.pi/partials`) committed as a link to a
// folder of yours (`~/.ssh`) was listed through the link, and each non-`.md` name there became
// an `ignored-file` info naming your file (`…/.pi/sections/id_rsa`), in a render's diagnostics,
// `explain --json`, `sections` and `watch`; `.pi/rules` and `.pi/skills` so linked are refused at
// the folder. The layer folders now are too, with the door's words, before they are listed.

describe("hostile repository: a layer folder linked out of the project is refused at the folder", () => {
  for (const folder of ["sections", "partials"] as const) {
    it(`layer-${folder}-linked-home: no name of yours there is printed`, async () => {
      const root = tempDir();
      const project = join(root, "project");
      const ssh = join(root, "home", ".ssh");
      mkdirSync(ssh, { recursive: true });
      writeFileSync(join(ssh, "id_rsa"), "SSH-SECRET\n");
      writeFileSync(join(ssh, "diary.md"), "DIARY-SECRET\n");
      mkdirSync(join(project, ".pi"), { recursive: true });
      execFileSync("git", ["init", "-q", project]);
      writeFileSync(join(project, "AGENTS.md"), "# root\n");
      symlinkSync(ssh, join(project, ".pi", folder));
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
      const said = JSON.stringify(result.diagnostics);
      expect(said).not.toContain("id_rsa");
      expect(said).not.toContain("diary");
      expect(result.text).not.toContain("SECRET");
      const refused = result.diagnostics.filter((d) => d.path === join(project, ".pi", folder));
      expect(refused.map((d) => d.code)).toEqual(["file-outside-project"]);
      expect(refused[0]?.message).toContain("outside the project root");
    });
  }
});
