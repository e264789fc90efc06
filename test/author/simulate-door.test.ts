import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { FIXTURES, pinned, tempDir } from "../api/_helpers.js";

// `explain --simulate` renders a copy of the project, in which a link to a
// file inside it becomes that file. A link the door would refuse in the
// project (to a private file of an untrusted project, to a hidden entry of a
// home that is the root) is not copied: in the copy it would be a plain file,
// past every check by link, and its target's text would be rendered.

const SLOW = 120_000;
const SECRET = "MARKER-SECRET";

describe("explain --simulate copies links through the door", () => {
  it(
    "an untrusted project's .cursorrules linked to .env is left out with the door's words; the baseline is the project's prompt",
    async () => {
      const root = tempDir();
      const dir = join(root, "project");
      cpSync(join(FIXTURES, "simulate", "small-project"), dir, { recursive: true });
      mkdirSync(join(dir, ".git"));
      writeFileSync(join(dir, ".env"), `TOKEN=${SECRET}\n`);
      symlinkSync(".env", join(dir, ".cursorrules"));
      const options = pinned(root, { projectTrusted: false });
      const report = await simulatePrompt(options, { sandboxDir: join(root, "sandboxes") });
      expect(report.skipped).toEqual([
        {
          path: join(dir, ".cursorrules"),
          reason:
            "a symbolic link, not copied: the project is not trusted and it resolves to .env, which is hidden (a name that starts with a dot); trust the project to read it",
        },
      ]);
      const inPlace = await renderSystemPrompt({ ...options, ceilingDir: dir });
      expect(inPlace.text).not.toContain(SECRET);
      expect(report.baseline.bytes).toBe(Buffer.byteLength(inPlace.text, "utf8"));
    },
    SLOW,
  );

  it(
    "in a home folder that is the project root, AGENTS.md linked to ~/.ssh/id_rsa is left out",
    async () => {
      const root = tempDir();
      const home = join(root, "home");
      mkdirSync(join(home, ".git"), { recursive: true });
      mkdirSync(join(home, ".ssh"));
      writeFileSync(join(home, ".ssh", "id_rsa"), `${SECRET}\n`);
      symlinkSync(".ssh/id_rsa", join(home, "AGENTS.md"));
      const options = pinned(root, { cwd: home, home });
      const report = await simulatePrompt(options, { sandboxDir: join(root, "sandboxes") });
      expect(report.skipped).toEqual([
        {
          path: join(home, "AGENTS.md"),
          reason: `a symbolic link, not copied: it resolves to ${join(home, ".ssh", "id_rsa")}, a hidden entry of the home folder ${home}; the home folder is the project root here, and no link or import reaches its hidden files`,
        },
      ]);
      const inPlace = await renderSystemPrompt({ ...options, ceilingDir: home });
      expect(inPlace.text).not.toContain(SECRET);
      expect(report.baseline.bytes).toBe(Buffer.byteLength(inPlace.text, "utf8"));
    },
    SLOW,
  );
});
