import { describe, expect, it } from "vitest";
import { compileHgIgnore } from "../../src/repo-files/hgignore.js";

describe("hgignore: Mercurial's reading of the file", () => {
  const ignores = (text: string, path: string) => compileHgIgnore(text).ignores(path);

  it("regexp is an unanchored search from the path's start; ^ roots it; a folder's match holds below", () => {
    expect(ignores("secret", "a/b/my-secret.txt")).toBe(true);
    expect(ignores("^secret", "a/secret")).toBe(false);
    expect(ignores("^build$", "build/out/x.o")).toBe(true);
    expect(ignores("^build$", "builds/x.o")).toBe(false);
    expect(ignores("\\.(pyc|pyo)$", "pkg/m.pyc")).toBe(true);
    expect(ignores("a{2,3}b", "xaab")).toBe(true);
    expect(ignores("[^/]+\\.tmp$", "d/x.tmp")).toBe(true);
  });

  it("glob matches at any depth; rootglob from the top; a per-line prefix; # comments and \\#", () => {
    expect(ignores("syntax: glob\n*.log\n", "a/b/x.log")).toBe(true);
    expect(ignores("syntax: glob\nnode_modules\n", "web/node_modules/x/y.js")).toBe(true);
    expect(ignores("rootglob:out/*\n", "out/a")).toBe(true);
    expect(ignores("rootglob:out/*\n", "sub/out/a")).toBe(false);
    expect(ignores("glob:**/keys/*.pem\n", "a/keys/k.pem")).toBe(true);
    expect(ignores("glob:*.{yml,yaml}\n", "c.yaml")).toBe(true);
    expect(ignores("syntax: glob\nkeep.txt # a comment\n", "keep.txt")).toBe(true);
    expect(ignores("syntax: glob\nnote\\#1\n", "note#1")).toBe(true);
    expect(ignores("syntax: glob\n# secrets.yml\n", "secrets.yml")).toBe(false);
  });

  it("what it cannot read is a cut, never a pass", () => {
    expect(compileHgIgnore("(?=x)y\n").cut).toContain("line 1");
    expect(compileHgIgnore("ok\n(?i)secret\n").cut).toContain("line 2");
    expect(compileHgIgnore("subinclude:sub/.hgignore\n").cut).toContain("line 1");
    expect(compileHgIgnore("syntax: glob\n*.log\n").cut).toBeUndefined();
  });
});
