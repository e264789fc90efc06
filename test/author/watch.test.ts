import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ancestorsOf } from "../../src/_paths.js";
import type { WatchRender } from "../../src/author/types.js";
import { watchPrompt } from "../../src/author/watch/watch.js";
import type { SystemPromptOptions } from "../../src/options.js";
import { BUILTIN, copyScenario, pinned } from "../api/_helpers.js";
import { QUIET_MS, until } from "./_until.js";

const stops: AbortController[] = [];
afterEach(() => {
  for (const c of stops.splice(0)) c.abort();
});

/** Starts watching; `renders` fills as renders are reported. */
function start(options: SystemPromptOptions) {
  const controller = new AbortController();
  stops.push(controller);
  const renders: WatchRender[] = [];
  const done = watchPrompt(options, {
    signal: controller.signal,
    onRender: (r) => renders.push(r),
  });
  const last = () => renders[renders.length - 1];
  const text = (name: string) => last()?.result.sections.find((s) => s.name === name)?.text;
  return { controller, renders, done, last, text };
}

/**
 * The scenario: `.pi/sections/team.md` and an AGENTS.md in the project, an
 * empty agent dir, no home folder, no `.git` (the project root is cwd).
 */
function scenario() {
  const root = copyScenario("watch", "edit-break-fix");
  return { root, project: join(root, "project"), agent: join(root, "agent") };
}

// Past `until`'s 10 s per wait: a test makes several.
describe("watchPrompt", { timeout: 30_000 }, () => {
  it("watches the folders the render read; one that is missing through the folder above it", async () => {
    const { root, project, agent } = scenario();
    const w = start(pinned(root));
    await until(() => w.renders.length === 1, "the first render");
    expect(w.renders[0]?.watching).toEqual(
      [
        // Context files: the agent dir, then every folder from / down to cwd
        // (root also stands for the missing home folder's ~/.agents/skills).
        ...ancestorsOf(project),
        agent,
        // Layers: the builtin prompts and their sections; the agent dir stands
        // for its missing sections/, partials/, prompts/ and skills/.
        BUILTIN.replace(/\/$/, ""),
        join(BUILTIN, "agents"),
        join(BUILTIN, "sections"),
        join(project, ".pi"),
        join(project, ".pi", "sections"),
      ].sort(),
    );
    w.controller.abort();
    await w.done;
  });

  it("a new import is watched from the render that sees it", async () => {
    const { root, project } = scenario();
    const w = start(pinned(root));
    await until(() => w.renders.length === 1, "the first render");
    writeFileSync(join(project, "AGENTS.md"), "# Project\n\n@docs/style.md\n");
    await until(() => w.renders.length === 2, "the AGENTS.md edit");
    expect(w.text("project_context")).toContain("\nPrefer small functions.\n");
    writeFileSync(join(project, "docs", "style.md"), "Prefer pure functions.\n");
    await until(() => w.renders.length === 3, "the imported file's edit");
    expect(w.renders[2]?.changed).toEqual([join(project, "docs", "style.md")]);
    expect(Object.keys(w.renders[2]?.changes ?? {})).toEqual(["project_context"]);
    expect(w.text("project_context")).toContain("\nPrefer pure functions.\n");
  });

  it("a layer folder that appears is watched, and a file written into it at once is not missed", async () => {
    const { root, agent } = scenario();
    const w = start(pinned(root));
    await until(() => w.renders.length === 1, "the first render");
    mkdirSync(join(agent, "sections"));
    writeFileSync(join(agent, "sections", "notes.md"), "---\norder: 66\n---\nUser notes.\n");
    await until(() => w.text("notes") !== undefined, "the new section");
    expect(w.text("notes")).toBe("<notes>\nUser notes.\n</notes>");
    // Quiet follow-up renders that find nothing new are not reported.
    for (const r of w.renders.slice(1)) {
      expect(r.changed.length > 0 || r.changes !== undefined).toBe(true);
    }
  });

  it("with the workspace tree, a new file at the top of the working folder re-renders it", async () => {
    const { root, project } = scenario();
    const w = start(pinned(root, { workspaceTree: true }));
    await until(() => w.renders.length === 1, "the first render");
    expect(w.text("workspace_tree")).not.toContain("NOTES.txt");
    writeFileSync(join(project, "NOTES.txt"), "notes\n");
    await until(() => w.renders.length === 2, "the new file");
    expect(w.renders[1]?.changed).toEqual([join(project, "NOTES.txt")]);
    expect(w.text("workspace_tree")).toContain("NOTES.txt");
  });

  it("an explicit file that disappears is an error render; watching goes on", async () => {
    const { root, project } = scenario();
    const file = join(project, "SYSTEM-custom.md");
    writeFileSync(file, "You are a careful agent.\n");
    const w = start(pinned(root, { systemPrompt: file }));
    await until(() => w.renders.length === 1, "the first render");
    expect(w.text("system")).toBe("You are a careful agent.");
    rmSync(file);
    await until(() => w.renders.length === 2, "the deletion");
    expect(w.renders[1]?.error?.message).toMatch(
      /^--system-prompt: ".*SYSTEM-custom\.md" looks like/,
    );
    // The last good result stands.
    expect(w.renders[1]?.result).toBe(w.renders[0]?.result);
    writeFileSync(file, "You are a patient agent.\n");
    await until(() => w.renders.length === 3, "the file's return");
    expect(w.renders[2]?.error).toBeUndefined();
    expect(w.text("system")).toBe("You are a patient agent.");
  });

  it("resolves on abort, and reports nothing after it", async () => {
    const { root, project } = scenario();
    const w = start(pinned(root));
    await until(() => w.renders.length === 1, "the first render");
    w.controller.abort();
    await w.done;
    writeFileSync(join(project, ".pi", "sections", "team.md"), "Team: after.\n");
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(w.renders).toHaveLength(1);
  });

  it("a bad option throws before anything is watched", async () => {
    const { root } = scenario();
    const controller = new AbortController();
    await expect(
      watchPrompt(pinned(root, { deadlineMs: -1 }), {
        signal: controller.signal,
        onRender: () => undefined,
      }),
    ).rejects.toThrow(/deadlineMs/);
  });
  it("an editor's temporary and backup files are not changes: only the file it saves is", async () => {
    const { root, project } = scenario();
    const sections = join(project, ".pi", "sections");
    const w = start(pinned(root));
    await until(() => w.renders.length === 1, "the first render");
    // vim's swap file and its write test, a ~ backup, emacs' autosave and lock, JetBrains' safe write.
    const temps = [
      ".team.md.swp",
      ".team.md.swo",
      "4913",
      "team.md~",
      "#team.md#",
      ".#team.md",
      "team.md___jb_tmp___",
      "team.md___jb_old___",
    ];
    for (const name of temps) writeFileSync(join(sections, name), "scratch\n");
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(w.renders.length).toBe(1);
    for (const name of temps) rmSync(join(sections, name));
    writeFileSync(join(sections, "team.md"), "The team is platform.\n");
    await until(() => w.renders.length === 2, "the save");
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(w.renders.map((r) => r.changed)).toEqual([[], [join(sections, "team.md")]]);
  });
});
