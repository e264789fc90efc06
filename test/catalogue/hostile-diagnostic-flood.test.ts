import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_DIAGNOSTICS_PER_KIND } from "../../src/engine/message.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A repository can make most kinds of diagnostic once per file or entry: 60
// skill folders whose SKILL.md has no description gave 60 errors of one
// code on every render (5,000 with the walk's cap; 1,000 refused rule files
// the same way), each a line the CLI prints. A render now shows at most
// MAX_DIAGNOSTICS_PER_KIND of one code and counts the rest in one
// diagnostics-capped diagnostic at the first one left out, of the highest
// level among those it counts.

describe("hostile repository: one kind of warning, hundreds of times", () => {
  it("is shown 20 times, then counted once", async () => {
    const root = tempDir();
    const skills = join(root, "project", ".pi", "skills");
    const names = Array.from({ length: 60 }, (_, i) => `s${String(i).padStart(3, "0")}`);
    for (const name of names) {
      mkdirSync(join(skills, name), { recursive: true });
      writeFileSync(join(skills, name, "SKILL.md"), `---\nname: ${name}\n---\nNo description.\n`);
    }
    const { diagnostics } = await renderSystemPrompt(pinned(root));
    const flood = diagnostics.filter((d) => d.code === "skill-description-required");
    expect(flood.map((d) => d.path)).toEqual(
      names.slice(0, MAX_DIAGNOSTICS_PER_KIND).map((n) => join(skills, n, "SKILL.md")),
    );
    const capped = diagnostics.filter((d) => d.code === "diagnostics-capped");
    expect(capped).toEqual([
      {
        level: "error",
        code: "diagnostics-capped",
        message: `… and 40 more [skill-description-required] diagnostics not shown (the first ${MAX_DIAGNOSTICS_PER_KIND} are): the first not shown is at this path`,
        path: join(skills, names[MAX_DIAGNOSTICS_PER_KIND] ?? "", "SKILL.md"),
      },
    ]);
    expect(diagnostics.length).toBeLessThan(40);
  });
});
