import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev104a F3 (low): `explain --simulate` said "no file at" for an
// import of a file the copy left out (a hard link, a link out of the
// project), where `explain` gives the true reason. The copy records why it
// left each file out (`skipped`); the simulated render's diagnostic for such
// an import now gives that reason, the one the report lists, not "no file at".

const SLOW = 120_000;

describe("hostile repository: an import of a file the simulation's copy left out", () => {
  it(
    "is said to be left out for the copy's reason, not missing",
    async () => {
      const root = tempDir();
      const dir = join(root, "project");
      mkdirSync(join(dir, ".git"), { recursive: true });
      mkdirSync(join(root, "home"), { recursive: true });
      writeFileSync(join(root, "home", "notes.md"), "your notes\n");
      writeFileSync(join(dir, "real.md"), "hello\n");
      linkSync(join(dir, "real.md"), join(dir, "hard.md"));
      symlinkSync(join(root, "home", "notes.md"), join(dir, "out.md"));
      symlinkSync(join(root, "home"), join(dir, "outdir"));
      writeFileSync(
        join(dir, "AGENTS.md"),
        "# Agents\n\nSee @hard.md, @out.md and @outdir/notes.md, and @gone.md.\n",
      );
      const report = await simulatePrompt(pinned(root), {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      const reasonOf = (name: string) =>
        report.skipped.find((s) => s.path === join(dir, name))?.reason;
      const said = report.diagnostics.filter((d) => d.path === join(dir, "AGENTS.md"));
      for (const name of ["hard.md", "out.md"]) {
        expect(said).toContainEqual(
          expect.objectContaining({
            code: "simulate-copy",
            message: `@${name}: not in the simulation's copy: it left out ${join(dir, name)} (${reasonOf(name)}); left as written`,
          }),
        );
      }
      expect(said).toContainEqual(
        expect.objectContaining({
          code: "simulate-copy",
          message: `@outdir/notes.md: not in the simulation's copy: it left out ${join(dir, "outdir")}, which holds ${join(dir, "outdir", "notes.md")} (${reasonOf("outdir")}); left as written`,
        }),
      );
      expect(reasonOf("hard.md")).toMatch(/2 names/);
      // A file that is nowhere is still missing.
      expect(said).toContainEqual(
        expect.objectContaining({
          code: "import-missing",
          message: `@gone.md: no file at ${join(dir, "gone.md")}; left as written`,
        }),
      );
      expect(said.filter((d) => /no file at/.test(d.message))).toHaveLength(1);
    },
    SLOW,
  );
});
