import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cli } from "./_run.js";

/** `<root>/project` holding a/b/c/d/e/deep.txt: one folder per level, five deep. */
function deepProject(): string {
  const root = tempDir();
  mkdirSync(join(root, "project", ".git"), { recursive: true });
  mkdirSync(join(root, "project", "a/b/c/d/e"), { recursive: true });
  writeFileSync(join(root, "project", "a/b/c/d/e/deep.txt"), "x\n");
  return root;
}

/** The names the tree shows, one per line, without their times. */
const names = (text: string) =>
  [...text.matchAll(/^ +(\S+\/?)(?: |$)/gm)].map((m) => m[1]).filter((n) => n !== undefined);

describe("the workspace tree's depth", () => {
  it("--tree-depth N shows N levels and turns the tree on", async () => {
    const root = deepProject();
    const three = await cli(root, ["render", "--tree", "--section", "workspace_tree"]);
    const five = await cli(root, ["render", "--tree-depth", "5", "--section", "workspace_tree"]);
    const six = await cli(root, ["render", "--tree-depth", "6", "--section", "workspace_tree"]);
    expect(names(three.stdout)).toEqual(["a/", "b/", "c/"]);
    expect(names(five.stdout)).toEqual(["a/", "b/", "c/", "d/", "e/"]);
    expect(names(six.stdout)).toEqual(["a/", "b/", "c/", "d/", "e/", "deep.txt"]);
  });

  it("--no-tree still leaves the tree out", async () => {
    const root = deepProject();
    const out = await cli(root, ["render", "--tree-depth", "5", "--no-tree"]);
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain("<workspace_tree>");
  });

  it.each(["0", "9", "2.5", "deep", "-1"])("--tree-depth %s is a usage error", async (bad) => {
    const out = await cli(deepProject(), ["render", "--tree-depth", bad]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain(
      `--tree-depth expects a whole number of levels from 1 to 8, such as 4, got "${bad}"`,
    );
  });

  it("sysprompt.yaml's tree-depth sets it; a bad value is a located error and the default holds", async () => {
    const root = deepProject();
    const config = join(root, "project", ".pi", "sysprompt.yaml");
    mkdirSync(join(root, "project", ".pi"));
    writeFileSync(config, "tree: true\ntree-depth: 4\n");
    const four = await cli(root, ["render", "--section", "workspace_tree"]);
    expect(names(four.stdout)).toEqual(["a/", "b/", "c/", "d/"]);
    writeFileSync(config, "tree: true\ntree-depth: 0\n");
    const bad = await cli(root, ["render"]);
    const tree = /<workspace_tree>[\s\S]*<\/workspace_tree>/.exec(bad.stdout)?.[0] ?? "";
    expect(names(tree)).toEqual(["a/", "b/", "c/"]);
    expect(bad.stderr).toContain(`${config}:2 [config-bad-value] tree-depth must be`);
  });

  it("the treeDepth option is checked like every option", async () => {
    const root = deepProject();
    const options = { ...pinned(root), cwd: join(root, "project"), workspaceTree: true };
    const two = await renderSystemPrompt({ ...options, treeDepth: 2 });
    const tree = two.sections.find((s) => s.name === "workspace_tree")?.text ?? "";
    expect(names(tree)).toEqual(["a/", "b/"]);
    for (const bad of [0, 9, 1.5, "3"]) {
      await expect(renderSystemPrompt({ ...options, treeDepth: bad as number })).rejects.toThrow(
        /treeDepth.*a whole number of levels from 1 to 8/,
      );
    }
  });
});
