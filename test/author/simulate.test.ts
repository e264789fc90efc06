import { execFileSync } from "node:child_process";
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeSandbox, removeSandbox } from "../../src/author/sandbox.js";
import { commonPrefix, measureBaseline, survival } from "../../src/author/simulate/_prefix.js";
import { actionTime } from "../../src/author/simulate/_simulate-actions.js";
import {
  SIMULATED_ACTIONS,
  type SimulatedRow,
  type SimulationReport,
  simulatePrompt,
} from "../../src/author/simulate/simulate.js";
import type { SystemPromptOptions } from "../../src/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tokenCounter } from "../../src/tokens.js";
import { FIXTURES, pinned, tempDir } from "../api/_helpers.js";

const count = tokenCounter();
/** Every fixture entry's time: the edits the simulation makes are newer. */
const PINNED_TIME = new Date("2025-06-01T12:00:00Z");
/** The simulation makes a dozen renders, the session's included: slow on a shared machine. */
const SLOW = 120_000;

/** `<root>/project` (a copy of the small project, times pinned), `<root>/agent`, `<root>/home`. */
function project(): {
  root: string;
  options: (extra?: SystemPromptOptions) => SystemPromptOptions;
} {
  const root = tempDir();
  const dir = join(root, "project");
  cpSync(join(FIXTURES, "simulate", "small-project"), dir, { recursive: true });
  mkdirSync(join(dir, ".git"));
  pinTimes(dir);
  return { root, options: (extra = {}) => pinned(root, extra) };
}

function pinTimes(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (lstatSync(path).isDirectory()) pinTimes(path);
    else utimesSync(path, PINNED_TIME, PINNED_TIME);
  }
  utimesSync(dir, PINNED_TIME, PINNED_TIME);
}

/** Every path below `dir` with its mtime and bytes: what "the project was not written" compares. */
function state(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const s = lstatSync(path);
      out[path] =
        `${s.mtimeMs} ${s.isFile() ? readFileSync(path, "base64") : s.isDirectory() ? "dir" : "other"}`;
      if (s.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

function row(report: SimulationReport, action: SimulatedRow["action"]): SimulatedRow {
  const found = report.actions.find((a) => a.action === action);
  if (!found) throw new Error(`no row for ${action}`);
  return found;
}

/** The byte offset of a section in the baseline (sections are joined by one blank line). */
function offsetOf(report: SimulationReport, name: string): number {
  let offset = 0;
  for (const s of report.baseline.sections) {
    if (s.name === name) return offset;
    offset += s.bytes + 2;
  }
  throw new Error(`no section ${name}`);
}

/** What a render that keeps every byte of the baseline reports. */
function whole(report: SimulationReport) {
  const byClass = Object.fromEntries(
    Object.entries(report.baseline.byClass).map(([c, s]) => [
      c,
      { ...s, keptBytes: s.bytes, keptTokens: s.tokens },
    ]),
  );
  return {
    bytes: report.baseline.bytes,
    tokens: report.baseline.tokens,
    share: 1,
    brokenAt: null,
    byClass,
  };
}

/** The section's text in a plain render of the project in place (for sections that do not show cwd). */
async function sectionText(options: SystemPromptOptions, name: string): Promise<string> {
  const result = await renderSystemPrompt(options);
  const text = result.sections.find((s) => s.name === name)?.text;
  if (text === undefined) throw new Error(`no section ${name}`);
  return text;
}

const prefixBytes = (a: string, b: string) =>
  commonPrefix(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

/** The baseline has the size, tokens and sections of a render of the project in place. */
async function expectBaselineOf(report: SimulationReport, options: SystemPromptOptions) {
  const { cwd } = options;
  const inPlace = await renderSystemPrompt({ ...options, ceilingDir: cwd ?? "" });
  expect(report.baseline.bytes).toBe(Buffer.byteLength(inPlace.text, "utf8"));
  expect(report.baseline.tokens).toBe(count(inPlace.text));
  expect(report.baseline.sections.map((s) => [s.name, s.bytes])).toEqual(
    inPlace.sections.map((s) => [s.name, Buffer.byteLength(s.text, "utf8")]),
  );
}

/** The class the render gives a section (the block it stands in). */
async function classOfBuiltin(options: SystemPromptOptions, name: string) {
  const result = await renderSystemPrompt(options);
  return result.blocks.find((b) => b.sections.includes(name))?.cache;
}

describe("simulatePrompt", () => {
  it(
    "without the tree: edits, added files and folders keep the whole prefix; the next day, a tool and an AGENTS.md edit break it where their sections are",
    async () => {
      const { root, options } = project();
      const before = state(join(root, "project"));
      const report = await simulatePrompt(options(), { sandboxDir: join(root, "sandboxes") });
      expect(report.diagnostics).toEqual([]);
      expect(report.skipped).toEqual([]);
      // The baseline is the project's own prompt, byte for byte (the copy's path swapped back).
      await expectBaselineOf(report, options());
      expect(report.actions.map((a) => [a.action, a.detail])).toEqual([
        ["source-edited", "src/main.ts"],
        ["file-added", "src/simulated-new-file.ts"],
        ["folder-added", "simulated-new-folder/"],
        ["next-day", "now 2026-01-16T10:00:00.000Z"],
        ["tool-added", "+grep"],
        ["agents-md-edited", "AGENTS.md"],
      ]);
      for (const action of ["source-edited", "file-added", "folder-added"] as const) {
        expect(row(report, action).fresh).toEqual(whole(report));
      }

      // The next day: everything before the date section, and the date's text up to its day.
      const day = row(report, "next-day").fresh;
      const dateNow = await sectionText(options(), "date");
      const dateNext = await sectionText(options({ now: "2026-01-16T10:00:00Z" }), "date");
      expect(day.brokenAt).toEqual({ section: "date", cache: "session", how: "changed" });
      expect(day.bytes).toBe(offsetOf(report, "date") + prefixBytes(dateNow, dateNext));
      expect(day.byClass.stable.keptBytes).toBe(report.baseline.byClass.stable.bytes);
      expect(day.share).toBeLessThan(1);

      // A tool added: the prefix ends inside the tools section, the second one.
      const tool = row(report, "tool-added").fresh;
      const tools = await sectionText(options(), "tools");
      const more = await sectionText(
        options({ tools: ["read", "bash", "edit", "write", "grep"] }),
        "tools",
      );
      expect(tool.brokenAt).toEqual({ section: "tools", cache: "stable", how: "changed" });
      expect(tool.bytes).toBe(offsetOf(report, "tools") + prefixBytes(tools, more));
      expect(tool.byClass.volatile.keptBytes).toBe(0);

      // AGENTS.md edited: the prefix ends inside project_context, after everything before it.
      const agents = row(report, "agents-md-edited").fresh;
      const start = offsetOf(report, "project_context");
      const size = report.baseline.sections.find((s) => s.name === "project_context")?.bytes ?? 0;
      expect(agents.brokenAt).toEqual({
        section: "project_context",
        cache: "stable",
        how: "changed",
      });
      expect(agents.bytes).toBeGreaterThanOrEqual(start);
      expect(agents.bytes).toBeLessThan(start + size);

      // The project itself was not written, and the copy is gone.
      expect(state(join(root, "project"))).toEqual(before);
      expect(readdirSync(join(root, "sandboxes"))).toEqual([]);
    },
    SLOW,
  );

  it(
    "with the tree: an edit, a file and a folder break the prefix at workspace_tree and lose every section after it",
    async () => {
      const { root, options } = project();
      const opts = options({ workspaceTree: true });
      const report = await simulatePrompt(opts, { sandboxDir: join(root, "sandboxes") });
      expect(report.diagnostics).toEqual([]);
      // The tree too: the copy keeps every time.
      await expectBaselineOf(report, opts);
      const names = report.baseline.sections.map((s) => s.name);
      const tree = names.indexOf("workspace_tree");
      expect(tree).toBeGreaterThan(0);
      const start = offsetOf(report, "workspace_tree");
      const end = start + (report.baseline.sections[tree]?.bytes ?? 0);
      const cache = await classOfBuiltin(opts, "workspace_tree");
      for (const action of ["source-edited", "file-added", "folder-added"] as const) {
        const fresh = row(report, action).fresh;
        expect(fresh.brokenAt, action).toEqual({
          section: "workspace_tree",
          cache,
          how: "changed",
        });
        expect(fresh.bytes, action).toBeGreaterThanOrEqual(start);
        expect(fresh.bytes, action).toBeLessThan(end);
        // The sections after the tree (cwd, date) keep nothing.
        expect(fresh.byClass.volatile.keptBytes, action).toBe(0);
        expect(fresh.share, action).toBeLessThan(1);
      }
      // The tree shows absolute times: the next day changes only the date.
      expect(row(report, "next-day").fresh.brokenAt?.section).toBe("date");
    },
    SLOW,
  );

  it(
    "in a session: the same figures where stable files change; where only the workspace or the clock does, the whole prompt is kept",
    async () => {
      const { root, options } = project();
      const report = await simulatePrompt(options({ workspaceTree: true }), {
        sandboxDir: join(root, "sandboxes"),
      });
      for (const action of ["tool-added", "agents-md-edited"] as const) {
        expect(row(report, action).session, action).toEqual(row(report, action).fresh);
      }
      for (const action of ["source-edited", "file-added", "folder-added", "next-day"] as const) {
        const { fresh, session } = row(report, action);
        // The session keeps its session sections (tree, date) as it took them: nothing breaks.
        expect([session?.share, session?.brokenAt], action).toEqual([1, null]);
        expect(fresh.share, action).toBeLessThan(1);
      }
      const without = await simulatePrompt(options(), {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      expect(without.actions.every((a) => a.session === undefined)).toBe(true);
    },
    SLOW,
  );

  it(
    "leaves links and FIFOs out of the copy and says so; a project without AGENTS.md gets one added",
    async () => {
      const { root, options } = project();
      const dir = join(root, "project");
      execFileSync("rm", [join(dir, "AGENTS.md")]);
      symlinkSync("/etc/passwd", join(dir, "src", "secret.ts"));
      execFileSync("mkfifo", [join(dir, "pipe")]);
      const report = await simulatePrompt(options(), { sandboxDir: join(root, "sandboxes") });
      expect(report.skipped).toEqual([
        { path: join(dir, "pipe"), reason: "a FIFO: not copied" },
        {
          path: join(dir, "src", "secret.ts"),
          reason: "a symbolic link, not to a regular file inside the project: not copied",
        },
      ]);
      expect(row(report, "agents-md-edited").detail).toBe(
        "AGENTS.md (added: the project has none)",
      );
      expect(row(report, "agents-md-edited").fresh.brokenAt).toEqual({
        section: "project_context",
        cache: "stable",
        how: "added",
      });
    },
    SLOW,
  );

  it(
    "copies a link to a file inside the project as that file (CLAUDE.md -> AGENTS.md): the baseline is still the project's prompt",
    async () => {
      const { root, options } = project();
      const dir = join(root, "project");
      symlinkSync("AGENTS.md", join(dir, "CLAUDE.md"));
      symlinkSync("..", join(dir, "src", "up"));
      const report = await simulatePrompt(options(), { sandboxDir: join(root, "sandboxes") });
      expect(report.skipped).toEqual([
        {
          path: join(dir, "src", "up"),
          reason: "a symbolic link, not to a regular file inside the project: not copied",
        },
      ]);
      await expectBaselineOf(report, options());
    },
    SLOW,
  );

  it(
    "never copies the folder of the copies into itself (a project that holds the cache)",
    async () => {
      const { root, options } = project();
      const sandboxes = join(root, "project", "cache", "simulate");
      const report = await simulatePrompt(options(), { sandboxDir: sandboxes });
      expect(report.skipped).toEqual([
        { path: join(root, "project", "cache"), reason: "holds the temporary copies: not copied" },
      ]);
      expect(report.actions).toHaveLength(6);
    },
    SLOW,
  );

  it(
    "names the project's paths, never the copy's: diagnostics as a render of the project has them",
    async () => {
      const { root, options } = project();
      const sections = join(root, "project", ".pi", "sections");
      mkdirSync(sections, { recursive: true });
      writeFileSync(join(sections, "tools.md"), "---\norder: 20\n---\n{{#each tools}}\n");
      writeFileSync(join(root, "project", "AGENTS.md"), "See @./missing.md.\n");
      const opts = options();
      const report = await simulatePrompt(opts, { sandboxDir: join(root, "sandboxes") });
      const own = await renderSystemPrompt(opts);
      expect(own.diagnostics.map((d) => d.path)).toContain(join(sections, "tools.md"));
      expect(report.diagnostics).toEqual(own.diagnostics);
      expect(JSON.stringify(report)).not.toContain(join(root, "sandboxes"));
    },
    SLOW,
  );

  it("a working folder the copy leaves out (node_modules/pkg) is not simulated, with an error", async () => {
    const { root, options } = project();
    const pkg = join(root, "project", "node_modules", "pkg");
    mkdirSync(pkg, { recursive: true });
    const report = await simulatePrompt(options({ cwd: pkg }), {
      sandboxDir: join(root, "sandboxes"),
    });
    expect(report.actions).toEqual([]);
    expect(report.diagnostics).toEqual([
      {
        level: "error",
        code: "simulate-copy",
        message:
          "not simulated: the working folder is inside a folder the copy leaves out (.git, node_modules); run it from the project's own folders",
        path: pkg,
      },
    ]);
    expect(readdirSync(join(root, "sandboxes"))).toEqual([]);
  });

  it(
    "the simulated renders stop at one budget together: the actions not started are named in a simulate-cut warning",
    async () => {
      const { root, options } = project();
      // A budget already spent after the first render: no action is simulated, and each is named.
      const cut = await simulatePrompt(options(), {
        sandboxDir: join(root, "sandboxes"),
        maxRenderMs: 0,
      });
      expect(cut.actions).toEqual([]);
      expect(cut.baseline.sections.length).toBeGreaterThan(0);
      const warning = cut.diagnostics.find((d) => d.code === "simulate-cut");
      expect(warning?.message).toContain("6 of 6 actions were not simulated");
      for (const action of SIMULATED_ACTIONS) expect(warning?.message).toContain(action);
      expect(readdirSync(join(root, "sandboxes"))).toEqual([]);
    },
    SLOW,
  );
  it("a --system-prompt file named relative to cwd, outside the project, is read from where it is", async () => {
    const { root, options } = project();
    writeFileSync(join(root, "base.md"), "You are the base prompt of this test.\n");
    const opts = options({ systemPrompt: "../base.md" });
    const report = await simulatePrompt(opts, { sandboxDir: join(root, "sandboxes") });
    expect(report.baseline.sections[0]?.name).toBe("system");
    await expectBaselineOf(report, opts);
  });

  it(
    "a project too large to copy is not simulated: an error per problem, no rows",
    async () => {
      const { root, options } = project();
      const many = join(root, "project", "many");
      mkdirSync(many);
      for (let i = 0; i <= 10_000; i++) writeFileSync(join(many, `f${i}`), "");
      const report = await simulatePrompt(options(), { sandboxDir: join(root, "sandboxes") });
      expect(report.actions).toEqual([]);
      expect(report.diagnostics).toEqual([
        {
          level: "error",
          code: "simulate-copy",
          message: expect.stringMatching(/^not simulated: .*more than 10000 entries/),
          path: expect.stringContaining(join(root, "project", "many")),
        },
      ]);
      expect(readdirSync(join(root, "sandboxes"))).toEqual([]);
    },
    SLOW,
  );
});

describe("the prefix a render keeps", () => {
  const base = (sections: { name: string; text: string }[]) =>
    measureBaseline(
      { text: sections.map((s) => s.text).join("\n\n"), sections },
      () => "stable",
      count,
    );
  const next = (sections: { name: string; text: string }[]) => ({
    text: sections.map((s) => s.text).join("\n\n"),
    sections,
  });
  const a = { name: "a", text: "alpha" };
  const b = { name: "b", text: "beta" };
  const c = { name: "c", text: "gamma" };

  it("names the first section that changed, was added or was removed", () => {
    const was = base([a, b, c]);
    const classOf = () => "session" as const;
    expect(
      survival(was, next([a, { name: "b", text: "beta2" }, c]), classOf, count).brokenAt,
    ).toEqual({ section: "b", cache: "session", how: "changed" });
    expect(
      survival(was, next([a, { name: "x", text: "x" }, b, c]), classOf, count).brokenAt,
    ).toEqual({ section: "x", cache: "session", how: "added" });
    expect(survival(was, next([a, c]), classOf, count).brokenAt).toEqual({
      section: "b",
      cache: "session",
      how: "removed",
    });
    expect(survival(was, next([a, b, c]), classOf, count).brokenAt).toBeNull();
  });

  it("never keeps part of a character: a common first byte of é and è is not kept", () => {
    expect(commonPrefix(Buffer.from("aé"), Buffer.from("aè"))).toBe(1);
    expect(commonPrefix(Buffer.from("same"), Buffer.from("same"))).toBe(4);
    expect(commonPrefix(Buffer.from("ab"), Buffer.from("abc"))).toBe(2);
  });
});

describe("the copy a simulation renders", () => {
  it("keeps the time of every file and folder, so the copy's tree reads as the project's", async () => {
    const { root } = project();
    const dir = join(root, "project");
    const { sandbox, skipped } = await makeSandbox(dir, join(root, "sandboxes"), new Set(), {
      skipSpecial: true,
      keepTimes: true,
    });
    if (!sandbox) throw new Error("no sandbox");
    try {
      const times = (d: string) =>
        Object.fromEntries(
          Object.entries(state(d)).map(([path, s]) => [path.slice(d.length), s.split(" ")[0]]),
        );
      expect(skipped).toEqual([]);
      const { "/.git": _git, ...project } = times(dir);
      expect(times(sandbox.copy)).toEqual(project);
      expect(lstatSync(sandbox.copy).mtimeMs).toBe(PINNED_TIME.getTime());
    } finally {
      await removeSandbox(sandbox);
    }
  });
});

describe("the time an action's files get", () => {
  it("is a minute after the render clock, or after the newest entry when that is later", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "a"));
    writeFileSync(join(dir, "a", "new.ts"), "");
    const newest = new Date("2026-06-01T00:00:00Z");
    utimesSync(join(dir, "a", "new.ts"), newest, newest);
    utimesSync(join(dir, "a"), PINNED_TIME, PINNED_TIME);
    expect(await actionTime(dir, new Date("2026-01-15T10:00:00Z"))).toEqual(
      new Date("2026-06-01T00:01:00Z"),
    );
    expect(await actionTime(dir, new Date("2027-01-01T00:00:00Z"))).toEqual(
      new Date("2027-01-01T00:01:00Z"),
    );
  });
});
