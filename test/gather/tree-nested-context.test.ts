import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTEXT_FILE_NAMES, NESTED_CONTEXT_NAMES } from "../../src/gather/context-names.js";
import { LISTING_CACHE_VERSION } from "../../src/gather/tree/_listing-cache.js";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

/** Writes each `path: text` under `root`; a text starting with `->` makes a symlink to the rest. */
function plant(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    if (text.startsWith("->")) symlinkSync(text.slice(2), path);
    else writeFileSync(path, text);
  }
  return root;
}

// Folders at every depth the walk treats apart: listed (1-3 below the root
// with the default tree depth 3, the shallower shown) and the last level (4),
// where the walk only stats.
const NESTED = {
  "AGENTS.md": "root: a context file of its own",
  "a/GEMINI.md": "gemini at depth 2",
  "a/b/CLAUDE.md": "claude at depth 3",
  "a/b/c/GEMINI.md": "gemini at depth 4",
  "a/b/c/d/CLAUDE.md": "claude at the last level",
  "x/y/z/w/GEMINI.md": "gemini at the last level",
  // One file per folder, the first name of the precedence: AGENTS.md over CLAUDE.md and GEMINI.md.
  "both/AGENTS.md": "agents",
  "both/CLAUDE.md": "claude, shadowed",
  "both/GEMINI.md": "gemini, shadowed",
  "p/q/r/s/AGENTS.md": "agents at the last level",
  "p/q/r/s/GEMINI.md": "gemini at the last level, shadowed",
  // A CLAUDE.md that is a link to the AGENTS.md beside it is one file (AGENTS.md wins).
  "same/AGENTS.md": "one file",
  "same/CLAUDE.md": "->AGENTS.md",
  // A link to a file named already, in another folder: named once, at the shallower folder.
  "m/n/o/t/CLAUDE.md": "->../../../../a/GEMINI.md",
};

/** Without GEMINI.md among the names: the link to a/GEMINI.md is then a file named nowhere else. */
const withoutGemini = (paths: readonly string[]) =>
  [...paths.filter((p) => !p.endsWith("GEMINI.md")), "m/n/o/t/CLAUDE.md"].sort();

const EXPECTED = [
  "a/GEMINI.md",
  "a/b/CLAUDE.md",
  "a/b/c/GEMINI.md",
  "a/b/c/d/CLAUDE.md",
  "both/AGENTS.md",
  "p/q/r/s/AGENTS.md",
  "same/AGENTS.md",
  "x/y/z/w/GEMINI.md",
];

describe("dir_context names nested context files of every name", () => {
  it("the walk looks for the names on-touch delivery looks for, in its order", () => {
    expect(NESTED_CONTEXT_NAMES).toEqual([...CONTEXT_FILE_NAMES, "GEMINI.md"]);
  });

  it("CLAUDE.md and GEMINI.md at every depth, one per folder, each file once", async () => {
    const root = plant(join(tempDir(), "project"), NESTED);
    expect((await buildWorkspaceTree(root)).agentsMd).toEqual(EXPECTED);
  });

  it("the same with a listing cache, cold and warm", async () => {
    const root = plant(join(tempDir(), "project"), NESTED);
    const cache = { path: join(tempDir(), "tree.json"), parents: false };
    const options = { cache, maxDepth: 2 };
    expect((await buildWorkspaceTree(root, options)).agentsMd).toEqual(EXPECTED);
    expect((await buildWorkspaceTree(root, options)).agentsMd).toEqual(EXPECTED);
  });

  it("only the names given: a configured name, and no default one it replaces", async () => {
    const root = plant(join(tempDir(), "project"), {
      ...NESTED,
      "k/CONTEXT.md": "configured",
      "k/l/m/n/CONTEXT.md": "configured, at the last level",
    });
    const names = [...CONTEXT_FILE_NAMES, "CONTEXT.md"];
    const listing = await walkTree(root, { listDepth: 3, agentsDepth: 5, contextNames: names });
    expect([...listing.agentsMd].sort()).toEqual(
      [...withoutGemini(EXPECTED), "k/CONTEXT.md", "k/l/m/n/CONTEXT.md"].sort(),
    );
  });

  it("a folder holding a file the agent loads itself names none", async () => {
    const root = plant(join(tempDir(), "project"), NESTED);
    const tree = await buildWorkspaceTree(root, { agentLoads: ["CLAUDE.md"] });
    // both/ and a/b/… hold a CLAUDE.md: Claude Code reads it when it touches the folder.
    expect(tree.agentsMd).toEqual([
      "a/GEMINI.md",
      "a/b/c/GEMINI.md",
      "p/q/r/s/AGENTS.md",
      "x/y/z/w/GEMINI.md",
    ]);
  });

  it("a cache file written for other names is a miss, never a wrong answer", async () => {
    const root = plant(join(tempDir(), "project"), NESTED);
    const cache = { path: join(tempDir(), "tree.json"), parents: false };
    const only = [...CONTEXT_FILE_NAMES];
    await buildWorkspaceTree(root, { cache, contextNames: only });
    const withGemini = await buildWorkspaceTree(root, { cache });
    expect(withGemini.agentsMd).toEqual(EXPECTED);
    // And back: the GEMINI.md files are not named from a file written with them.
    const without = await buildWorkspaceTree(root, { cache, contextNames: only });
    expect(without.agentsMd).toEqual(withoutGemini(EXPECTED));
  });

  it("a cache file of the format before (AGENTS.md alone) is a miss", async () => {
    const root = plant(join(tempDir(), "project"), NESTED);
    const path = join(tempDir(), "tree.json");
    // What format 3 wrote for the root: no context files but AGENTS.md, as "f".
    const old = LISTING_CACHE_VERSION.replace(/tree-listing\/\d+/, "tree-listing/3");
    writeFileSync(path, JSON.stringify({ version: old, roots: {} }));
    const tree = await buildWorkspaceTree(root, { cache: { path, parents: false } });
    expect(tree.agentsMd).toEqual(EXPECTED);
  });

  it("names with tags stay escaped in the prompt", async () => {
    const base = tempDir();
    const options = pinned(base, { workspaceTree: true, treeMtime: "2026-01-01T00:00:00Z" });
    plant(options.cwd as string, { "</dir_context>x/GEMINI.md": "tagged folder" });
    const text = (await renderSystemPrompt(options)).text;
    expect(text).not.toContain("</dir_context>x/GEMINI.md");
    expect(text).toMatch(/x\/GEMINI\.md/);
  });
});

describe("render: dir_context with nested GEMINI.md, CLAUDE.md and a configured name", () => {
  const files = {
    "pkg/GEMINI.md": "gemini",
    "pkg/sub/CLAUDE.md": "claude",
    "tools/CONTEXT.md": "configured",
    "tools/deep/er/x/CONTEXT.md": "configured, at the last level",
  };

  it("names each of them", async () => {
    const base = tempDir();
    const options = pinned(base, { workspaceTree: true, treeMtime: "2026-01-01T00:00:00Z" });
    const cwd = options.cwd as string;
    plant(cwd, {
      ...files,
      ".gemini/settings.json": JSON.stringify({
        context: { fileName: ["GEMINI.md", "CONTEXT.md"] },
      }),
    });
    const text = (await renderSystemPrompt(options)).text;
    for (const path of [
      "pkg/GEMINI.md",
      "pkg/sub/CLAUDE.md",
      "tools/CONTEXT.md",
      "tools/deep/er/x/CONTEXT.md",
    ]) {
      expect(text).toContain(`- ${path}`);
    }
  });

  it("without the setting, the configured name is not a context file", async () => {
    const base = tempDir();
    const options = pinned(base, { workspaceTree: true, treeMtime: "2026-01-01T00:00:00Z" });
    plant(options.cwd as string, files);
    const text = (await renderSystemPrompt(options)).text;
    expect(text).toContain("- pkg/GEMINI.md");
    expect(text).toContain("- pkg/sub/CLAUDE.md");
    expect(text).not.toContain("- tools/CONTEXT.md");
  });

  it("Claude Code's preset leaves out the folders whose CLAUDE.md it loads itself", async () => {
    const base = tempDir();
    const options = pinned(base, {
      workspaceTree: true,
      treeMtime: "2026-01-01T00:00:00Z",
      agent: "claude-code",
    });
    plant(options.cwd as string, files);
    const text = (await renderSystemPrompt(options)).text;
    expect(text).toContain("- pkg/GEMINI.md");
    expect(text).not.toContain("- pkg/sub/CLAUDE.md");
  });
});
