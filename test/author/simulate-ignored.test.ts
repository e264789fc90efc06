import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import type { SystemPromptOptions } from "../../src/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { FIXTURES, pinned, tempDir } from "../api/_helpers.js";

/** The simulation makes a dozen renders, the session's included: slow on a shared machine. */
const SLOW = 120_000;
const PINNED_TIME = new Date("2025-06-01T12:00:00Z");

/** `<root>/project`: the small project as a git root, with `files` written into it. */
function project(files: Record<string, string> = {}) {
  const root = tempDir();
  const dir = join(root, "project");
  cpSync(join(FIXTURES, "simulate", "small-project"), dir, { recursive: true });
  mkdirSync(join(dir, ".git"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { root, dir, options: (extra: SystemPromptOptions = {}) => pinned(root, extra) };
}

/** `count` empty files in `dir`: more than the copy's cap of 10,000 entries when over it. */
function fill(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `f${i}`), "");
}

/** The baseline is the project's own prompt (nothing above the project root looked at), section by section. */
async function expectProjectsPrompt(
  report: Awaited<ReturnType<typeof simulatePrompt>>,
  options: SystemPromptOptions,
) {
  const inPlace = await renderSystemPrompt({ ...options, ceilingDir: report.project.root });
  expect(report.baseline.sections.map((s) => [s.name, s.bytes])).toEqual(
    inPlace.sections.map((s) => [s.name, Buffer.byteLength(s.text, "utf8")]),
  );
}

describe("explain --simulate leaves out what git ignores", () => {
  it(
    "10,001 files in an ignored dist/ and an ignored .bench/ are not copied: the project is simulated, and the report names them",
    async () => {
      const { root, dir, options } = project({
        ".gitignore": "dist/\n.bench/\n",
        ".bench/run.json": "{}",
      });
      fill(join(dir, "dist"), 10_001);
      const report = await simulatePrompt(options({ workspaceTree: true }), {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      expect(report.diagnostics).toEqual([]);
      expect(report.actions.length).toBeGreaterThan(0);
      expect(report.ignored).toEqual([join(dir, ".bench"), join(dir, "dist")]);
      await expectProjectsPrompt(report, options({ workspaceTree: true }));
      expect(readdirSync(join(root, "sandboxes"))).toEqual([]);
    },
    SLOW,
  );

  it(
    "copies what a render reads whatever git says: an ignored .pi/ and .cursor/, and all that is in them",
    async () => {
      const { root, options } = project({
        ".gitignore": ".pi/\n.cursor/\ndrafts/\n",
        ".pi/sections/team.md": "---\norder: 5\n---\nTeam section from an ignored .pi/.\n",
        // Below a folder the render reads by its own rules, nothing is left out.
        ".pi/skills/drafts/SKILL.md":
          "---\nname: drafts\ndescription: Draft things.\n---\nSteps.\n",
        ".cursor/rules/style.mdc":
          "---\nalwaysApply: true\n---\nTwo spaces, from an ignored .cursor/.\n",
      });
      const report = await simulatePrompt(options(), {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      expect(report.diagnostics).toEqual([]);
      expect(report.ignored).toEqual([]);
      const names = report.baseline.sections.map((s) => s.name);
      expect(["team", "project_rules", "skills"].map((n) => names.includes(n))).toEqual([
        true,
        true,
        true,
      ]);
      await expectProjectsPrompt(report, options());
    },
    SLOW,
  );

  it(
    "copies the ignored folder cwd is in, and what it holds",
    async () => {
      const { root, dir, options } = project({
        ".gitignore": "scratch/\n",
        "scratch/work/AGENTS.md": "Scratch rules.\n",
        "scratch/work/main.ts": "export {};\n",
        "scratch/other/x.ts": "export {};\n",
      });
      const opts = options({ cwd: join(dir, "scratch", "work") });
      const report = await simulatePrompt(opts, {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      expect(report.diagnostics).toEqual([]);
      // scratch/ holds cwd and is copied; below it, git's rules are asked again by name.
      expect(report.ignored).toEqual([]);
      expect(report.actions.find((a) => a.action === "source-edited")?.detail).toBe("main.ts");
      await expectProjectsPrompt(report, opts);
    },
    SLOW,
  );

  it(
    "an ignore file that is a link, a FIFO or binary is not read: its folder is copied",
    async () => {
      const { root, dir, options } = project({
        "elsewhere.txt": "src/\n",
        "docs/.ignore": "\0bin",
      });
      symlinkSync("elsewhere.txt", join(dir, ".gitignore"));
      execFileSync("mkfifo", [join(dir, "src", ".gitignore")]);
      const report = await simulatePrompt(options(), {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      expect(report.ignored).toEqual([]);
      expect(report.actions.find((a) => a.action === "source-edited")?.detail).toBe("src/main.ts");
      // The link leads to a file inside the project: copied as that file; the FIFO is not.
      expect(report.skipped.map((s) => s.path)).toEqual([join(dir, "src", ".gitignore")]);
    },
    SLOW,
  );

  it(
    "over the cap without what git ignores: not simulated, and the error says the cap counts what git does not ignore",
    async () => {
      const { root, dir, options } = project({ ".gitignore": "dist/\n" });
      fill(join(dir, "dist"), 20);
      fill(join(dir, "many"), 10_001);
      utimesSync(dir, PINNED_TIME, PINNED_TIME);
      const report = await simulatePrompt(options(), { sandboxDir: join(root, "sandboxes") });
      expect(report.actions).toEqual([]);
      expect(report.ignored).toEqual([join(dir, "dist")]);
      expect(report.diagnostics).toEqual([
        {
          level: "error",
          code: "simulate-copy",
          message:
            "not simulated: the project is copied first, and this entry stops the copy: the project has more than 10000 entries besides what git ignores (.git, node_modules and what git ignores are not copied): too many to copy",
          path: expect.stringContaining(join(dir, "many")),
        },
      ]);
    },
    SLOW,
  );
});

describe("the copy's bound on ignored folders", () => {
  it(
    "more than 10,000 ignored folders: not simulated, with an error, and never more looked at",
    async () => {
      const { root, dir, options } = project({ ".gitignore": "*/\n!src/\n!docs/\n" });
      for (let i = 0; i <= 10_000; i++) mkdirSync(join(dir, `d${i}`));
      const report = await simulatePrompt(options(), { sandboxDir: join(root, "sandboxes") });
      expect(report.actions).toEqual([]);
      expect(report.ignored).toHaveLength(10_000);
      expect(report.diagnostics.map((d) => [d.code, d.message])).toEqual([
        [
          "simulate-copy",
          "not simulated: the project is copied first, and this entry stops the copy: the project has more than 10000 folders git ignores: too many to look at",
        ],
      ]);
    },
    SLOW,
  );
});
