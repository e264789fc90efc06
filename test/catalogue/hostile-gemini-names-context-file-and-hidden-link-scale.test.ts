import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev104a F5 (low). A context file that `.gemini/settings.json`'s
// `context.fileName` also names (`["AGENTS.md", "GEMINI.md"]`) was found a
// second time as a Gemini rule and said to repeat itself ("every paragraph of
// it is already stated in <its own path>"): it is now the context file, not
// read again, and said so. A name the settings set that leads into a hidden
// folder is refused trusted or not (rev101a F2), but an untrusted render
// refused it with the door's private words, "trust the project to read it",
// a trust that reads nothing here; the tree's link warning said the same, and
// a trusted tree listed the link for the model to read. Now the settings'
// own rule is judged first, in the rules step and the tree alike.

function project(): { root: string; dir: string } {
  const root = tempDir();
  const dir = join(root, "project");
  mkdirSync(join(dir, ".git"), { recursive: true });
  mkdirSync(join(dir, ".gemini"), { recursive: true });
  return { root, dir };
}

describe("hostile repository: .gemini/settings.json names a context file, or a link into a hidden folder", () => {
  it("a context file the settings name too is not said to repeat itself", async () => {
    const { root, dir } = project();
    writeFileSync(
      join(dir, ".gemini", "settings.json"),
      '{"context":{"fileName":["AGENTS.md","GEMINI.md","AGENTS.md"]}}',
    );
    writeFileSync(join(dir, "AGENTS.md"), "# Rules\n\nUse tabs.\n");
    const result = await renderSystemPrompt(pinned(root, { cwd: dir }));
    const about = result.diagnostics.filter((d) => d.path === join(dir, "AGENTS.md"));
    expect(about).toEqual([
      {
        level: "info",
        code: "rule-same-file",
        message: "rule not loaded again: it is a context file, loaded as one",
        path: join(dir, "AGENTS.md"),
      },
    ]);
    expect(result.text.match(/Use tabs\./g)).toHaveLength(1);
  });

  it("a named link into a hidden folder is refused in the settings' words, trusted or not", async () => {
    const { root, dir } = project();
    writeFileSync(join(dir, ".gemini", "settings.json"), '{"context":{"fileName":["NOTES.md"]}}');
    mkdirSync(join(dir, ".hid"));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, ".hid", "x.md"), "HIDDEN-MARKER\n");
    symlinkSync(".hid/x.md", join(dir, "NOTES.md"));
    symlinkSync("../.hid/x.md", join(dir, "sub", "NOTES.md"));
    writeFileSync(join(dir, "AGENTS.md"), "# Root\n");
    const words =
      ".hid/x.md is hidden (a name that starts with a dot), and a name .gemini/settings.json sets never names such a file";
    for (const projectTrusted of [true, false]) {
      const result = await renderSystemPrompt(
        pinned(root, { cwd: dir, workspaceTree: true, projectTrusted }),
      );
      expect(result.diagnostics).toContainEqual(
        expect.objectContaining({
          code: "rule-refused",
          message: `rule file not read: ${words}`,
          path: join(dir, "NOTES.md"),
        }),
      );
      expect(result.diagnostics).toContainEqual(
        expect.objectContaining({
          code: "agents-md-link-refused",
          message: expect.stringContaining(`sub/NOTES.md (the first: ${words})`),
        }),
      );
      expect(result.diagnostics.filter((d) => /trust the project/.test(d.message))).toEqual([]);
      const listed = result.sections.find((s) => s.name === "dir_context")?.text ?? "";
      expect(listed).not.toContain("sub/NOTES.md");
      expect(result.text).not.toContain("HIDDEN-MARKER");
    }
  });
});
