import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `explain --simulate` renders a copy of the project, and the copy held no
// `.git`: your `.git/info/exclude` and the boundary of a clone nested in the
// project were gone. An untrusted project's `@MY-EXCLUDED.txt`, which the
// real render refuses (import-private), was imported by every simulated
// render (its size in every figure), and `@vendor/mine/notes.md` into your
// clone (import-outside, trusted or not) too. The copy now keeps the real
// project's rules: the clone gets a `.git` of its own, and what the real door
// calls private is named in the copy's exclude file, so a file read at its
// own name (CLAUDE.local.md, which you exclude) is still read as it is in
// place (review rev47d F4).

const SLOW = 120_000;
const SECRET = "MARKER-EXCLUDED";

/** A git project whose AGENTS.md imports `imported`; `build(dir)` adds the rest. */
function project(imported: string, build: (dir: string) => void) {
  const root = tempDir();
  const dir = join(root, "project");
  mkdirSync(join(dir, ".git", "info"), { recursive: true });
  writeFileSync(join(dir, "AGENTS.md"), `# Project\n\n@${imported}\n`);
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "main.ts"), "export {};\n");
  build(dir);
  return { root, dir };
}

/** The simulation's baseline and the real render of the same options, in place. */
async function both(root: string, dir: string, trusted: boolean) {
  const options = pinned(root, { projectTrusted: trusted });
  const report = await simulatePrompt(options, { sandboxDir: join(root, "sandboxes") });
  const inPlace = await renderSystemPrompt({ ...options, ceilingDir: dir });
  const codes = (list: readonly { code: string }[]) =>
    list.map((d) => d.code).filter((c) => /^import-/.test(c));
  return { report, inPlace, codes: [codes(report.diagnostics), codes(inPlace.diagnostics)] };
}

describe("explain --simulate keeps the project's own path rules in its copy", () => {
  it(
    "an import of a file your .git/info/exclude names is refused in the copy as in place; your excluded CLAUDE.local.md is read in both",
    async () => {
      const { root, dir } = project("MY-EXCLUDED.txt", (d) => {
        writeFileSync(join(d, ".git", "info", "exclude"), "MY-EXCLUDED.txt\nCLAUDE.local.md\n");
        writeFileSync(join(d, "MY-EXCLUDED.txt"), `${`${SECRET} `.repeat(500)}\n`);
        writeFileSync(join(d, "CLAUDE.local.md"), "Local note: MARKER-LOCAL.\n");
      });
      const { report, inPlace, codes } = await both(root, dir, false);
      expect(inPlace.text).not.toContain(SECRET);
      expect(inPlace.text).toContain("MARKER-LOCAL");
      expect(codes).toEqual([["import-private"], ["import-private"]]);
      expect(report.baseline.bytes).toBe(Buffer.byteLength(inPlace.text, "utf8"));
    },
    SLOW,
  );

  it(
    "an import into a clone nested in the project is refused in the copy as in place, trusted",
    async () => {
      const { root, dir } = project("vendor/mine/notes.md", (d) => {
        const clone = join(d, "vendor", "mine");
        mkdirSync(join(clone, ".git"), { recursive: true });
        writeFileSync(join(clone, "notes.md"), `${"MARKER-CLONE ".repeat(400)}\n`);
      });
      const { report, inPlace, codes } = await both(root, dir, true);
      expect(inPlace.text).not.toContain("MARKER-CLONE");
      expect(codes).toEqual([["import-outside"], ["import-outside"]]);
      expect(report.baseline.bytes).toBe(Buffer.byteLength(inPlace.text, "utf8"));
    },
    SLOW,
  );
});
