import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { makeTree, manyFiles } from "../gather/_tree.js";

/** cwd with a small tree, and two extra roots with one wide folder each. */
function project(): string {
  const root = tempDir();
  makeTree(join(root, "project"), {
    "README.md": { at: "2026-01-11 00:00", size: 400 },
    "src/index.ts": { at: "2026-01-10 00:00", size: 90 },
    "src/": { at: "2026-01-10 00:00" },
  });
  makeTree(join(root, "lib"), { ...manyFiles("core", 14), "core/": { at: "2026-01-09 00:00" } });
  makeTree(join(root, "ui"), {
    ...manyFiles("widgets", 12, "2026-01-02 00:00"),
    "widgets/": { at: "2026-01-08 00:00" },
  });
  return root;
}

const render = (root: string, maxPromptTokens?: number) =>
  renderSystemPrompt(
    pinned(root, {
      workspaceTree: true,
      roots: [join(root, "lib"), join(root, "ui")],
      ...(maxPromptTokens ? { maxPromptTokens } : {}),
    }),
  );

const section = (r: { sections: { name: string; text: string }[] }, name: string) =>
  r.sections.find((s) => s.name === name)?.text;

const MARKER = (n: number) => `… at most ${n} entries per folder shown, to fit the token budget`;

describe("a budget over a render with two extra roots (builtin sections, o200k)", () => {
  it("fits by cutting every tree that is past one limit: cwd's tree is small and stays, both roots' trees give", async () => {
    const root = project();
    const plain = await render(root, 100_000);
    // The temporary folder's name is in the text, so the total varies by a few
    // tokens; what the tree lines cost does not (no path in them).
    const initial = plain.budget?.initialTokens ?? 0;
    // 320 tokens to save: more than either root's whole tree costs (under 290
    // each), and between what 4 entries a folder saves (298) and 3 (340).
    const result = await render(root, initial - 320);
    expect(result.budget).toEqual({
      maxTokens: initial - 320,
      tokenizer: "o200k_base",
      initialTokens: initial,
      tokens: initial - 340,
      fits: true,
      cuts: [
        {
          section: "workspace_tree",
          step: "tree-lines",
          detail: "the workspace trees list at most 3 entries per folder (2 of 3 trees cut)",
          saved: 340,
          complete: false,
        },
      ],
      skipped: [],
    });
    const tree = section(result, "workspace_tree") ?? "";
    const cwdPart = (text: string) => text.slice(0, text.indexOf(`${root}/lib/`));
    expect(cwdPart(tree)).toBe(cwdPart(section(plain, "workspace_tree") ?? ""));
    expect(tree.slice(tree.indexOf(`${root}/lib/`))).toBe(
      [
        `${root}/lib/`,
        "  core/  2026-01-09 00:00",
        "    f13.txt  1B  2026-01-01 00:13",
        "    f12.txt  1B  2026-01-01 00:12",
        "    … 11 more",
        "    f00.txt  1B  2026-01-01 00:00",
        MARKER(3),
        "",
        `${root}/ui/`,
        "  widgets/  2026-01-08 00:00",
        "    f11.txt  1B  2026-01-02 00:11",
        "    f10.txt  1B  2026-01-02 00:10",
        "    … 9 more",
        "    f00.txt  1B  2026-01-02 00:00",
        MARKER(3),
        "</workspace_tree>",
      ].join("\n"),
    );
    // Nothing else was touched, and the same input gives the same bytes.
    for (const s of plain.sections.filter((s) => s.name !== "workspace_tree")) {
      expect([s.name, section(result, s.name)]).toEqual([s.name, s.text]);
    }
    expect((await render(root, initial - 320)).text).toBe(result.text);
  });
});
