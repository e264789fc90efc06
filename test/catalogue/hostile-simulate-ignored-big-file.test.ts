import { closeSync, cpSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { FIXTURES, pinned, tempDir } from "../api/_helpers.js";

// Review rev56d F1 (low): one git-ignored file over 64 MiB (a dev database,
// a model) stopped `explain --simulate` whole, in a scenario's words ("the
// scenario folder's files are over 67108864 bytes together; keep only the
// fixtures in it"), though the same file in an ignored folder simulated
// fine. A file git ignores now counts toward caps of its own (the same 10,000
// entries and 64 MiB), not the project's: one past them is left out and named
// in `ignoredFiles`, never an error (a small one is copied: an `@import` may
// read it), but for one a render reads whatever git says (a context file,
// another agent's rule file, an ignore file), which counts as the project's.
// The project's cap speaks of the project, in MiB.

const SLOW = 120_000;
const MIB = 1024 * 1024;

/** `<root>/project`: the small project as a git root, with `files` written into it. */
function project(files: Record<string, string>) {
  const root = tempDir();
  const dir = join(root, "project");
  cpSync(join(FIXTURES, "simulate", "small-project"), dir, { recursive: true });
  mkdirSync(join(dir, ".git"));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return { root, dir };
}

/** A sparse file of `bytes` at `path`: its size without writing it. */
function sparse(path: string, bytes: number): void {
  const fd = openSync(path, "w");
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

describe("hostile repository: a git-ignored file over the copy's cap in explain --simulate", () => {
  it(
    "a 70 MiB ignored dev.db is left out and named; small ignored files and those a render reads are copied",
    async () => {
      const { root, dir } = project({
        // The ignore file names itself and the context file: git reads it all the same, and a render both.
        ".gitignore": "dev.db\nAGENTS.md\n.gitignore\nsrc/*.ts\n",
      });
      sparse(join(dir, "dev.db"), 70 * MIB);
      const report = await simulatePrompt(pinned(root), {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      expect(report.diagnostics.filter((d) => d.code === "simulate-copy")).toEqual([]);
      // The small ignored files are copied (an import may read one), under caps of their own.
      expect(report.ignoredFiles).toEqual([join(dir, "dev.db")]);
      expect(report.ignored).toEqual([]);
      expect(report.actions.length).toBeGreaterThan(0);
      // The copy's prompt is the project's, its ignored AGENTS.md included, section by section.
      const inPlace = await renderSystemPrompt({
        ...pinned(root),
        ceilingDir: report.project.root,
      });
      expect(inPlace.text).toContain("AGENTS.md");
      expect(report.baseline.sections.map((s) => [s.name, s.bytes])).toEqual(
        inPlace.sections.map((s) => [s.name, Buffer.byteLength(s.text, "utf8")]),
      );
    },
    SLOW,
  );

  it(
    "a 70 MiB file git does not ignore stops the copy, in the project's words and in MiB",
    async () => {
      const { root, dir } = project({});
      sparse(join(dir, "big.bin"), 70 * MIB);
      const report = await simulatePrompt(pinned(root), {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      expect(report.actions).toEqual([]);
      expect(report.diagnostics).toEqual([
        {
          level: "error",
          code: "simulate-copy",
          message:
            "not simulated: the project is copied first, and this entry stops the copy: the project's files are over 64 MiB together besides what git ignores (.git, node_modules and what git ignores are not copied; this file is 70.0 MiB): too much to copy",
          path: join(dir, "big.bin"),
        },
      ]);
    },
    SLOW,
  );
});
