import { describe, expect, it } from "vitest";
import { compileHgIgnore, normpath } from "../../src/repo-files/hgignore.js";

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

  it("a glob is normalised as a path first, as posixpath.normpath does (rev71a F1); a regexp is not", () => {
    for (const [path, normal] of [
      ["", "."],
      [".", "."],
      ["secrets/", "secrets"],
      ["./a//b/./c/", "a/b/c"],
      ["a/../../b", "../b"],
      ["../a/..", ".."],
      ["/a/../..", "/"],
      ["//a", "//a"],
      ["///a//", "/a"],
    ] as const) {
      expect(normpath(path), path).toBe(normal);
    }
    expect(ignores("syntax: glob\nsecrets/\n", "app/secrets/key.txt")).toBe(true);
    expect(ignores("syntax: glob\nsecrets/\n", "app/secrets.txt")).toBe(false);
    expect(ignores("rootglob:./out//x/\n", "out/x/y")).toBe(true);
    expect(ignores("rootglob:./out//x/\n", "a/out/x/y")).toBe(false);
    expect(ignores("re:^secrets/$\n", "secrets/x")).toBe(false);
    // The line an `include` prefix takes is made canonical from the top (canonpath).
    expect(ignores("includes/../a//b\n", "a/b")).toBe(true);
    expect(compileHgIgnore("includes/../../x\n").cut).toContain("leaves the working copy");
  });

  it("hg-core's kinds are read too: path:, relpath:, filepath:, rootfilesin:, syntax: relglob", () => {
    expect(ignores("path:secrets/\n", "secrets/key.txt")).toBe(true);
    expect(ignores("path:secrets/\n", "a/secrets/key.txt")).toBe(false);
    expect(ignores("syntax: glob\nrelpath:a+b//c\n", "a+b/c")).toBe(true);
    expect(ignores("filepath:conf/local.yml\n", "conf/local.yml")).toBe(true);
    expect(ignores("filepath:conf/local.yml\n", "conf/local.yml.bak")).toBe(false);
    expect(ignores("rootfilesin:./conf/\n", "conf/local.yml")).toBe(true);
    expect(ignores("rootfilesin:conf\n", "app/conf/local.yml")).toBe(false);
    expect(ignores("path:.\n", "anything/at/all")).toBe(true);
    // A syntax only hg-core knows: Python keeps regexp, hg-core reads a glob; either ignores.
    expect(ignores("syntax: relglob\nsecret[!x]\n", "a/secret1")).toBe(true);
    expect(ignores("syntax: path\nsecrets.yml\n", "secrets.yml")).toBe(true);
    expect(ignores("syntax: path\nsecrets.yml\n", "secretsXyml")).toBe(true);
    expect(ignores("syntax: path\nsecrets.yml\n", "notes.md")).toBe(false);
  });
});
