import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Found by the audit of rev68b F1's class: a trusted project's section template whose block
// name (a `[literal]` segment may hold anything but `]`) repeats " doesn't match " and holds a
// U+2028, closed by another name. Handlebars says "<name> doesn't match <other>", and our
// rewording read it with `^(.+) doesn't match (.+)$`: `.` stops at the U+2028, so `(.+)$` failed
// at each " doesn't match " in turn, quadratic: 128 KB of them cost 2.5 s, 256 KB about 10 s.
// A message holding a line break is now never read so (1.2 s idle for 256 KB, 14 s before).
const NAME = `${"a doesn't match ".repeat(16_000)}\u2028`;

describe("hostile repository: a block's long name with a line break is reworded in linear time", () => {
  it("a project section `{{#[… doesn't match …\\u2028]}}x{{/y}}`: under 5 s of CPU, reported", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": "Repo notes\n",
      "project/.pi/sections/project_context.md": `---\norder: 60\n---\n{{#[${NAME}]}}x{{/y}}\n`,
    });
    const { cpuMs, value } = await cpuTimed(() =>
      renderSystemPrompt(pinned(root, { projectTrusted: true })),
    );
    expect(cpuMs).toBeLessThan(5000);
    expect(value.text).toContain("Repo notes");
    expect(value.diagnostics.some((d) => d.path?.endsWith("project_context.md"))).toBe(true);
  });
});
