import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runStep } from "../../src/gather/deadline.js";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { buildWorkspaceTrees, workspaceDiagnostics } from "../../src/gather/tree/workspace.js";
import {
  preparePrompt,
  renderPrepared,
  renderSystemPrompt,
} from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "../cli/_run.js";
import { makeTree, manyFiles, type Spec } from "./_tree.js";

pinMachine();

const t = "2026-01-10 08:00";

/** `<root>/main` (cwd) and `<root>/other`, each with a nested AGENTS.md; `<root>/agent` empty. */
function workspace(): string {
  const root = tempDir();
  makeTree(join(root, "main"), {
    "AGENTS.md": { at: t, text: "Main rules." },
    "app.ts": { at: "2026-01-10 09:00", size: 10 },
    "pkg/": { at: t },
    "pkg/AGENTS.md": { at: t, text: "Package rules." },
  });
  makeTree(join(root, "other"), {
    "lib.ts": { at: "2026-01-10 07:00", size: 2048 },
    "sub/": { at: t },
    "sub/AGENTS.md": { at: t, text: "Sub rules." },
    "sub/deep/a/b/AGENTS.md": { at: t, text: "Four deep." },
  });
  makeTree(join(root, "agent"), {});
  return root;
}

const options = (root: string, extra: Record<string, unknown> = {}) => ({
  ...pinned(root),
  cwd: join(root, "main"),
  workspaceTree: true,
  // The tests assert the tree step's status: a loaded machine must not make it late.
  deadlineMs: 60_000,
  ...extra,
});

const section = (result: { sections: { name: string; text: string }[] }, name: string) =>
  result.sections.find((s) => s.name === name)?.text;

const INTRO =
  "The working directory's layout. Each folder lists its newest entries first, with file sizes and last-modified times (UTC); folders end in `/`, and a `… N more` line stands for entries left out. Hidden, ignored and dependency folders are not listed.";

describe("workspace roots: a tree and AGENTS.md list for each", () => {
  it("--cwd main --root other --tree: both trees, other's nested AGENTS.md by absolute path, the roots named as the current list", async () => {
    const root = workspace();
    const result = await renderSystemPrompt(options(root, { roots: ["../other"] }));
    expect(section(result, "workspace_tree")).toEqual(
      [
        "<workspace_tree>",
        INTRO,
        "",
        "main/",
        "  app.ts  10B  2026-01-10 09:00",
        "  AGENTS.md  11B  2026-01-10 08:00",
        "  pkg/  2026-01-10 08:00",
        "    AGENTS.md  14B  2026-01-10 08:00",
        "",
        "The other folders of the workspace, listed the same way, each under its absolute path:",
        "",
        `${root}/other/`,
        "  sub/  2026-01-10 08:00",
        "    AGENTS.md  10B  2026-01-10 08:00",
        "    deep/  2000-01-01 00:00",
        "      a/  2000-01-01 00:00",
        "  lib.ts  2KB  2026-01-10 07:00",
        "</workspace_tree>",
      ].join("\n"),
    );
    expect(section(result, "dir_context")).toEqual(
      [
        "<dir_context>",
        "Folders below the working directory have instruction files of their own, not loaded yet (paths relative to the working directory):",
        "- pkg/AGENTS.md",
        "In the other workspace folders, these subfolders have instruction files of their own, not loaded yet (absolute paths):",
        `- ${root}/other/sub/AGENTS.md`,
        `- ${root}/other/sub/deep/a/b/AGENTS.md`,
        "",
        "Such a file holds the rules for its folder and everything under it. Where it disagrees with a file from a folder above, the deeper file wins inside its folder. Before you change any file in one of these folders, read the file listed for it and follow it.",
        "</dir_context>",
      ].join("\n"),
    );
    expect(section(result, "workspace_roots")).toEqual(
      [
        "<workspace_roots>",
        "Besides the working directory, this workspace has these folders. This list is the current one: where an earlier message names other workspace folders, this list replaces it. Refer to files in these folders by absolute path.",
        `- ${root}/other`,
        "</workspace_roots>",
      ].join("\n"),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.steps.find((s) => s.name === "tree")?.status).toBe("ok");
  });

  it("a root's own AGENTS.md is a context file, not listed; without a tree the roots are listed alone", async () => {
    const root = workspace();
    writeFileSync(join(root, "other", "AGENTS.md"), "Other's own.");
    const result = await renderSystemPrompt(options(root, { roots: ["../other"] }));
    expect(section(result, "dir_context")).not.toContain(`${root}/other/AGENTS.md`);
    expect(section(result, "project_context")).toContain(
      `<repository_instructions path="${root}/other/AGENTS.md">\nOther's own.\n\n</repository_instructions>`,
    );
    const plain = await renderSystemPrompt(
      options(root, { roots: ["../other"], workspaceTree: false }),
    );
    expect(plain.sections.map((s) => s.name)).not.toContain("workspace_tree");
    expect(plain.sections.map((s) => s.name)).not.toContain("dir_context");
    expect(section(plain, "workspace_roots")).toEqual(section(result, "workspace_roots"));
  });

  it("CLI: --cwd main --root other --tree shows other's tree; the prompt is the same on every run", async () => {
    const root = workspace();
    // cli() runs in <root>/project: the relative paths are from there.
    const args = ["render", "--cwd", "../main", "--root", "../other", "--tree"];
    const first = await cli(root, args);
    const second = await cli(root, args);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`\n${root}/other/\n  sub/  2026-01-10 08:00\n`);
    expect(first.stdout).toContain(`\n- ${root}/other/sub/deep/a/b/AGENTS.md\n`);
    expect(second).toEqual(first);
  });
});

describe("buildWorkspaceTrees: one line budget for every tree", () => {
  /** A folder of six subfolders of twelve files: 79 lines uncut. */
  const wide = (dir: string) => {
    const spec: Record<string, Spec> = {};
    for (let i = 0; i < 6; i++) Object.assign(spec, manyFiles(`d${i}`, 12));
    return makeTree(dir, spec);
  };
  const small = (dir: string) =>
    makeTree(dir, {
      "a.txt": { at: t, size: 1 },
      "b.txt": { at: t, size: 1 },
      "c.txt": { at: t, size: 1 },
    });
  const count = (rendered: string) => rendered.split("\n").length;

  it("a tree that needs less than its share gives the rest to the others", async () => {
    const root = tempDir();
    const main = wide(join(root, "main"));
    const other = small(join(root, "other"));
    const built = await buildWorkspaceTrees(main, [other], { maxLines: 30 });
    expect(count(built.roots[0]?.tree?.rendered ?? "")).toBe(4);
    // The working directory's tree is exactly the one tree of 26 lines.
    expect(built.tree).toEqual(await buildWorkspaceTree(main, { maxLines: 26 }));
    expect(built.roots[0]?.tree).toEqual({
      ...(await buildWorkspaceTree(other, { maxLines: 30 })),
      rendered: [
        `${other}/`,
        "  a.txt  1B  2026-01-10 08:00",
        "  b.txt  1B  2026-01-10 08:00",
        "  c.txt  1B  2026-01-10 08:00",
      ].join("\n"),
      lines: [
        { depth: 0, text: `${other}/` },
        { depth: 1, text: "  a.txt  1B  2026-01-10 08:00" },
        { depth: 1, text: "  b.txt  1B  2026-01-10 08:00" },
        { depth: 1, text: "  c.txt  1B  2026-01-10 08:00" },
      ],
    });
  });

  it("trees that all need more share the lines equally; what the division leaves over goes to the working directory", async () => {
    const root = tempDir();
    const main = wide(join(root, "main"));
    const a = wide(join(root, "a"));
    const b = wide(join(root, "b"));
    const built = await buildWorkspaceTrees(main, [a, b], { maxLines: 62 });
    expect([
      count(built.tree.rendered),
      ...built.roots.map((r) => count(r.tree?.rendered ?? "")),
    ]).toEqual([22, 20, 20]);
    for (const r of [built.tree, ...built.roots.map((x) => x.tree)]) {
      expect(r?.truncated).toBe(true);
      expect(r?.rendered.split("\n").at(-1)).toBe("… deeper entries not shown (line limit)");
    }
    // With no extra root the working directory has the whole budget, as before.
    expect((await buildWorkspaceTrees(main, [], { maxLines: 62 })).tree).toEqual(
      await buildWorkspaceTree(main, { maxLines: 62 }),
    );
  });

  it("the same files give the same trees in any run, whatever order the walks finish in", async () => {
    const root = tempDir();
    const main = wide(join(root, "main"));
    const a = small(join(root, "a"));
    const b = wide(join(root, "b"));
    const one = await buildWorkspaceTrees(main, [a, b], { maxLines: 50 });
    const two = await buildWorkspaceTrees(main, [a, b], { maxLines: 50 });
    expect(two).toEqual(one);
    expect(one.roots.map((r) => r.path)).toEqual([a, b]);
  });
});

describe("buildWorkspaceTrees: roots it cannot show", () => {
  it("a root that is a link to a folder is shown under the path given; links inside it are not followed", async () => {
    const root = workspace();
    symlinkSync(join(root, "other"), join(root, "alias"));
    symlinkSync(join(root, "main"), join(root, "other", "back"));
    const built = await buildWorkspaceTrees(join(root, "main"), [join(root, "alias")], {
      mtime: "2026-01-10T08:00:00Z",
    });
    expect(built.roots[0]?.tree?.rendered).toEqual(
      [
        `${root}/alias/`,
        `  back -> ${root}/main  2026-01-10 08:00`,
        "  lib.ts  2KB  2026-01-10 08:00",
        "  sub/  2026-01-10 08:00",
        "    AGENTS.md  10B  2026-01-10 08:00",
        "    deep/  2026-01-10 08:00",
        "      a/  2026-01-10 08:00",
      ].join("\n"),
    );
    expect(built.rootAgentsMd).toEqual([
      `${root}/alias/sub/AGENTS.md`,
      `${root}/alias/sub/deep/a/b/AGENTS.md`,
    ]);
  });

  it("a root gone or replaced by a file when the tree is built: a warning, the other trees as they are", async () => {
    const root = workspace();
    const gone = join(root, "gone");
    const file = join(root, "file");
    writeFileSync(file, "x");
    const dangling = join(root, "dangling");
    symlinkSync(join(root, "nowhere"), dangling);
    const main = join(root, "main");
    const built = await buildWorkspaceTrees(main, [gone, join(root, "other"), file, dangling]);
    expect(built.tree).toEqual(await buildWorkspaceTree(main));
    expect(built.roots.map((r) => [r.path, r.tree === null])).toEqual([
      [gone, true],
      [join(root, "other"), false],
      [file, true],
      [dangling, true],
    ]);
    expect(workspaceDiagnostics(built, main)).toEqual([
      {
        level: "warning",
        code: "tree-root-unreadable",
        message:
          "the workspace tree shows no tree for this workspace root: there is no folder there (ENOENT)",
        path: gone,
      },
      {
        level: "warning",
        code: "tree-root-unreadable",
        message: "the workspace tree shows no tree for this workspace root: it is not a folder",
        path: file,
      },
      {
        level: "warning",
        code: "tree-root-unreadable",
        message:
          "the workspace tree shows no tree for this workspace root: there is no folder there (ENOENT)",
        path: dangling,
      },
    ]);
  });

  it("a root removed between the options check and the walk: the render warns and keeps cwd's tree", async () => {
    const root = workspace();
    // The options check (and the context step's) sees the folder; the walk, which starts
    // after them, does not: it is removed once the context step has settled.
    let context: Promise<unknown> = Promise.resolve();
    const runner: typeof runStep = (step, limit, clock) => {
      const { run } = step;
      if (step.name === "tree" && run) {
        const removeThenRun = () =>
          context.then(() => {
            rmSync(join(root, "other"), { recursive: true });
            return run();
          });
        return runStep({ ...step, run: removeThenRun }, limit, clock);
      }
      const outcome = runStep(step, limit, clock);
      if (step.name === "context") context = outcome;
      return outcome;
    };
    const prepared = await preparePrompt(options(root, { roots: ["../other"] }), runner);
    const result = renderPrepared(prepared);
    expect(result.steps.find((s) => s.name === "tree")?.status).toBe("ok");
    expect(section(result, "workspace_tree")).toContain(
      "\nmain/\n  app.ts  10B  2026-01-10 09:00\n",
    );
    expect(section(result, "workspace_tree")).not.toContain("other folders of the workspace");
    expect(result.diagnostics).toEqual([
      {
        level: "warning",
        code: "tree-root-unreadable",
        message:
          "the workspace tree shows no tree for this workspace root: there is no folder there (ENOENT)",
        path: join(root, "other"),
      },
    ]);
  });

  it("a root whose path holds a line break or a bidi control is shown on one line everywhere", async () => {
    const root = workspace();
    const evil = join(root, "ev\nil\u202e");
    makeTree(evil, { "sub/AGENTS.md": { at: t, text: "x" } });
    const result = await renderSystemPrompt(options(root, { roots: [evil] }));
    const shown = `${root}/ev\\u000ail\\u202e`;
    expect(section(result, "workspace_tree")).toContain(`\n${shown}/\n  sub/  2000-01-01 00:00\n`);
    expect(section(result, "dir_context")).toContain(`\n- ${shown}/sub/AGENTS.md\n`);
    expect(section(result, "workspace_roots")).toContain(`\n- ${shown}\n`);
    expect(result.text).not.toContain("ev\nil");
  });

  it("past the first 10 roots, a root is listed by path alone: one note for all of them", async () => {
    const root = tempDir();
    const main = makeTree(join(root, "main"), { "a.txt": { at: t, size: 1 } });
    const roots = Array.from({ length: 12 }, (_, i) =>
      makeTree(join(root, `r${String(i).padStart(2, "0")}`), { "b.txt": { at: t, size: 1 } }),
    );
    const built = await buildWorkspaceTrees(main, roots);
    expect(built.roots.map((r) => r.tree !== null)).toEqual([
      ...Array(10).fill(true),
      false,
      false,
    ]);
    expect(workspaceDiagnostics(built, main)).toEqual([
      {
        level: "info",
        code: "tree-roots-limit",
        message:
          "12 workspace roots: the first 10 are shown with a tree, the other 2 by path alone",
        path: roots[10],
      },
    ]);
  });

  it("a --root that is missing, a file or a dangling link is a usage error (exit 2), as a --cwd is", async () => {
    const root = workspace();
    writeFileSync(join(root, "file"), "x");
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    await expect(renderSystemPrompt(options(root, { roots: ["../dangling"] }))).rejects.toThrow(
      new SyspromptError(
        "bad-argument",
        '--root / roots: "../dangling" does not exist (ENOENT); pass an existing folder',
      ),
    );
    const out = await cli(root, ["render", "--cwd", "../main", "--tree", "--root", "../file"]);
    expect(out).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --root / roots: "${root}/file" is not a folder; pass the folder that holds the files\n${usageHint("render")}`,
    });
  });
});
