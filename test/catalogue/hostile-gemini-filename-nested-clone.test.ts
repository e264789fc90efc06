import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { renderSystemPrompt } from "../../src/index.js";
import { createPromptSession } from "../../src/session/index.js";
import { tempDir } from "../api/_helpers.js";
import { buildLayout } from "./_fixture.js";

// A hostile checkout E (or its tarball) whose README has you clone your
// plugin into `plugins/mine` (a repository of its own, a framework's
// `plugins/` or `custom_nodes/`) sets `context.fileName` to ["config.py"] in
// its `.gemini/settings.json`. The settings' names were looked for in every
// folder on a touched path, and a file found by one was judged in the
// project of its own folder, your clone, where it is no import: on touch
// (a session, a hook, `loadContextForPaths` untrusted) your `config.py` and
// its API key were given to the model, and the tree's `dir_context` listed
// it as an instruction file (review rev101a F1, high). The names a settings
// file sets now hold in its own project's folders only; in a repository of
// its own below it only the default names are looked for (its GEMINI.md),
// on touch and in the tree alike. E's own folders keep E's names.

const SECRETS = /MARKER-[A-Z]+/g;

async function layout(kind: "clone" | "tarball"): Promise<{ home: string; e: string }> {
  const base = tempDir();
  await buildLayout(base, "gemini-filename-nested-clone", [
    ["home/.pi/agent", { dir: true }],
    ["home/work/E/AGENTS.md", "Framework.\n"],
    ["home/work/E/.gemini/settings.json", '{"context":{"fileName":["config.py"]}}\n'],
    ["home/work/E/.git/HEAD", "ref: refs/heads/main\n"],
    // E's own folder: its name holds there.
    ["home/work/E/lib/config.py", "E-LIB-CONFIG\n"],
    ["home/work/E/lib/a.py", ""],
    // Your clone, at a level the tree lists, and one at its last level (found by stat only).
    ["home/work/E/plugins/mine/.git/HEAD", "ref: refs/heads/main\n"],
    ["home/work/E/plugins/mine/config.py", 'API_KEY = "MARKER-MINE"\n'],
    ["home/work/E/plugins/mine/GEMINI.md", "MINE-GEMINI\n"],
    ["home/work/E/plugins/mine/node.py", "import config\n"],
    ["home/work/E/a/b/nodes/x/.git/HEAD", "ref: refs/heads/main\n"],
    ["home/work/E/a/b/nodes/x/config.py", 'API_KEY = "MARKER-DEEP"\n'],
    ["home/work/E/a/b/nodes/x/n.py", ""],
    // Another repository of yours, shown as an extra root.
    ["home/work/other/.git/HEAD", "ref: refs/heads/main\n"],
    ["home/work/other/pkg/config.py", 'API_KEY = "MARKER-OTHER"\n'],
    ["home/work/other/pkg/AGENTS.md", "OTHER-AGENTS\n"],
    ["home/work/other/tool/config.py", 'API_KEY = "MARKER-TOOL"\n'],
  ]);
  const home = join(base, "home");
  const e = join(home, "work", "E");
  if (kind === "tarball") rmSync(join(e, ".git"), { recursive: true });
  return { home, e };
}

describe("hostile repository: context.fileName naming a file of a clone of yours inside it", () => {
  for (const kind of ["clone", "tarball"] as const) {
    for (const trusted of [true, false]) {
      const what = `${kind}, ${trusted ? "trusted" : "untrusted"}`;

      it(`touch, ${what}: not your config.py; your GEMINI.md and E's own config.py`, async () => {
        const { home, e } = await layout(kind);
        const r = await loadContextForPaths(
          [join(e, "plugins/mine/node.py"), join(e, "a/b/nodes/x/n.py"), join(e, "lib/a.py")],
          { cwd: e, home, projectTrusted: trusted },
        );
        const text = r.files.map((f) => `${f.path}\n${f.content}`).join("\n");
        expect(text.match(SECRETS) ?? []).toEqual([]);
        expect(r.files.map((f) => f.path.slice(e.length + 1))).toEqual([
          "plugins/mine/GEMINI.md",
          "lib/config.py",
        ]);
      });

      it(`the tree's dir_context, ${what}: names no config.py of yours`, async () => {
        const { home, e } = await layout(kind);
        const r = await renderSystemPrompt({
          cwd: e,
          home,
          agentDir: join(home, ".pi", "agent"),
          projectTrusted: trusted,
          workspaceTree: true,
          treeMtime: "2026-01-01T00:00:00Z",
        });
        expect(r.text).not.toContain("plugins/mine/config.py");
        expect(r.text).not.toContain("a/b/nodes/x/config.py");
        expect(r.text).toContain("- plugins/mine/GEMINI.md");
        expect(r.text).toContain("- lib/config.py");
      });
    }
  }

  it("a session's contextFor (as a hook's), untrusted: not your config.py", async () => {
    const { home, e } = await layout("clone");
    const session = createPromptSession({
      cwd: e,
      home,
      agentDir: join(home, ".pi", "agent"),
      projectTrusted: false,
    });
    try {
      const r = await session.contextFor([join(e, "plugins/mine/node.py")]);
      expect(
        r.files
          .map((f) => f.content)
          .join("\n")
          .match(SECRETS) ?? [],
      ).toEqual([]);
    } finally {
      session.close();
    }
  });

  it("an extra root, another repository: the working folder's names do not hold there", async () => {
    const { home, e } = await layout("clone");
    const other = join(home, "work", "other");
    const r = await renderSystemPrompt({
      cwd: e,
      home,
      agentDir: join(home, ".pi", "agent"),
      workspaceTree: true,
      treeMtime: "2026-01-01T00:00:00Z",
      roots: [other],
    });
    expect(r.text).not.toContain(`${other}/tool/config.py`);
    expect(r.text).not.toContain(`${other}/pkg/config.py`);
    expect(r.text).toContain(`${other}/pkg/AGENTS.md`);
    expect(r.text).toContain("- lib/config.py");
  });
});
