import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cli, pinMachine } from "../cli/_run.js";
import { LOADED_NOTE } from "./_context-section.js";
import { makeTree, manyFiles, type Spec } from "./_tree.js";

pinMachine();

const t = "2026-01-10 08:00";

/** `<root>/project` with a root AGENTS.md (unless `rootAgents` is false) and two deeper ones. */
function scenario(rootAgents = true): string {
  const root = tempDir();
  makeTree(join(root, "project"), {
    ...(rootAgents ? { "AGENTS.md": { at: "2026-01-10 09:00", text: "Use pnpm." } } : {}),
    "pkg/": { at: "2026-01-10 08:30" },
    "pkg/AGENTS.md": { at: t, text: "Package rules." },
    "pkg/api/AGENTS.md": { at: t, text: "API rules." },
    "pkg/api/": { at: t },
    "main.ts": { at: "2026-01-09 00:00", size: 1536 },
  });
  makeTree(join(root, "agent"), {});
  return root;
}

const TREE = [
  "project/",
  "  AGENTS.md  9B  2026-01-10 09:00",
  "  pkg/  2026-01-10 08:30",
  "    AGENTS.md  14B  2026-01-10 08:00",
  "    api/  2026-01-10 08:00",
  "      AGENTS.md  10B  2026-01-10 08:00",
  "  main.ts  1.5KB  2026-01-09 00:00",
].join("\n");

const WORKSPACE_TREE = `<workspace_tree>
The working directory's layout. Each folder lists its newest entries first, with file sizes and last-modified times (UTC); folders end in \`/\`, and a \`… N more\` line stands for entries left out. Hidden, ignored and dependency folders are not listed.

${TREE}
</workspace_tree>`;

const dirContext = () =>
  [
    "<dir_context>",
    "Folders below the working directory have instruction files of their own, not loaded yet (paths relative to the working directory):",
    "- pkg/AGENTS.md",
    "- pkg/api/AGENTS.md",
    "",
    "Such a file holds the rules for its folder and everything under it. Where it disagrees with a file from a folder above, the deeper file wins inside its folder. Before you change any file in one of these folders, read the file listed for it and follow it.",
    "</dir_context>",
  ].join("\n");

const section = (result: { sections: { name: string; text: string }[] }, name: string) =>
  result.sections.find((s) => s.name === name)?.text;

describe("workspaceTree option", () => {
  it("fills workspace_tree and dir_context, after project_context; the tree step is ok", async () => {
    const root = scenario();
    const result = await renderSystemPrompt(pinned(root, { workspaceTree: true }));
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "project_context",
      "cwd",
      "environment",
      "dir_context",
      "workspace_tree",
      "date",
    ]);
    expect(section(result, "dir_context")).toEqual(dirContext());
    // The note that instruction files need no search closes project_context, not dir_context.
    expect(
      section(result, "project_context")?.endsWith(`\n\n${LOADED_NOTE}\n</project_context>`),
    ).toBe(true);
    expect(section(result, "workspace_tree")).toEqual(WORKSPACE_TREE);
    expect(result.steps.find((s) => s.name === "tree")?.status).toEqual("ok");
    expect(result.diagnostics).toEqual([]);
  });

  it("says nothing about loaded files when no context file was loaded", async () => {
    const root = scenario(false);
    const result = await renderSystemPrompt(pinned(root, { workspaceTree: true }));
    expect(section(result, "dir_context")).toEqual(dirContext());
    expect(result.text).not.toContain(LOADED_NOTE);
  });

  it("a tree cut by the line cap says so", async () => {
    const root = tempDir();
    const spec: Record<string, Spec> = {};
    for (let i = 0; i < 12; i++) Object.assign(spec, manyFiles(`d${i}`, 12));
    makeTree(join(root, "project"), spec);
    makeTree(join(root, "agent"), {});
    const result = await renderSystemPrompt(pinned(root, { workspaceTree: true }));
    const text = section(result, "workspace_tree")?.split("\n") ?? [];
    expect([text.length, text[1], text.at(-2)]).toEqual([
      // tag, intro, blank, 120 tree lines, tag
      124,
      "The working directory's layout. Each folder lists its newest entries first, with file sizes and last-modified times (UTC); folders end in `/`, and a `… N more` line stands for entries left out. Hidden, ignored and dependency folders are not listed. Some entries are left out of this listing; list a folder to see all of it.",
      "… deeper entries not shown (line limit)",
    ]);
  });

  it("is off by default: no tree sections, the step skipped", async () => {
    const root = scenario();
    const result = await renderSystemPrompt(pinned(root));
    expect(result.sections.map((s) => s.name)).not.toContain("workspace_tree");
    expect(result.sections.map((s) => s.name)).not.toContain("dir_context");
    expect(result.steps.map((s) => [s.name, s.status]).at(-1)).toEqual(["tree", "skipped"]);
  });
});

describe("sysprompt render --tree", () => {
  it("--tree adds the tree and the deeper AGENTS.md files", async () => {
    const root = scenario();
    const out = await cli(root, ["render", "--tree", "--section", "workspace_tree"]);
    expect(out).toEqual({ code: 0, stdout: WORKSPACE_TREE, stderr: "" });
  });

  it("--tree with a generous --deadline: the tree step is ok", async () => {
    const root = scenario();
    const ok = await cli(root, ["render", "--tree", "--deadline", "60000", "--json"]);
    expect(
      JSON.parse(ok.stdout).steps.find((s: { name: string }) => s.name === "tree").status,
    ).toBe("ok");
  });
});
