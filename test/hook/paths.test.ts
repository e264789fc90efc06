import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { patchPaths } from "../../src/touch/patch-paths.js";
import { shellPaths, shellWords } from "../../src/touch/shell-paths.js";
import { tempDir } from "../api/_helpers.js";

describe("shellWords (relative)", () => {
  it("takes path-like words, relative ones against cwd or a literal cd before them", () => {
    const words = shellWords(
      "cat pkg/sub/x.ts README.md main && cd pkg && sed -n 1,5p sub/y.ts; ls -la ../a.ts",
      "/p",
      "/home/u",
      { relative: true },
    );
    expect(words.map((w) => w.abs)).toEqual([
      "/p/pkg/sub/x.ts",
      "/p/README.md",
      "/p/pkg/sub/y.ts",
      "/p/a.ts",
    ]);
  });

  it("reads quotes and escapes as the shell does, and guesses at nothing the shell would change", () => {
    const words = shellWords(
      `cat $HOME/a.ts src/*.ts a\\ b.ts --file=x.ts -o out.ts X=1.ts "q r.ts" 'it''s.ts' ~/c.ts {a,b}.ts "$D/e.ts" # f.ts`,
      "/p",
      "/home/u",
      { relative: true },
    );
    expect(words.map((w) => w.abs)).toEqual([
      "/p/a b.ts",
      "/p/out.ts",
      "/p/q r.ts",
      "/p/its.ts",
      "/home/u/c.ts",
    ]);
  });

  it("reads on past an unterminated quote: its own word is none, the next ones are read", () => {
    expect(shellWords("cat a.ts 'b.ts c.ts", "/p", "/h", { relative: true })).toEqual([
      { word: "a.ts", abs: "/p/a.ts" },
      { word: "c.ts", abs: "/p/c.ts" },
    ]);
  });

  it("without relative, takes only words written as paths (pi's bash)", () => {
    expect(shellWords("cat a/b.ts ./c.ts /d.ts", "/p", "/h").map((w) => w.abs)).toEqual([
      "/p/c.ts",
      "/d.ts",
    ]);
  });
});

describe("shellPaths", () => {
  it("keeps the words that exist, each once", async () => {
    const root = tempDir();
    mkdirSync(join(root, "pkg/sub"), { recursive: true });
    writeFileSync(join(root, "pkg/sub/x.ts"), "");
    expect(
      await shellPaths("cat pkg/sub/x.ts ./pkg/sub/x.ts gone.ts && cd pkg && ls sub", root, "/h", {
        relative: true,
      }),
    ).toEqual([join(root, "pkg/sub/x.ts")]);
  });
});

describe("patchPaths", () => {
  it("takes the files of Codex's and opencode's patch format", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: pkg/new.ts",
      "+export {};",
      "*** Update File: pkg/sub/x.ts",
      "*** Move to: pkg/sub/z.ts",
      "@@",
      "-a",
      "+b",
      "*** Delete File: /abs/old.ts",
      "*** End Patch",
    ].join("\n");
    expect(patchPaths(patch)).toEqual([
      "pkg/new.ts",
      "pkg/sub/x.ts",
      "pkg/sub/z.ts",
      "/abs/old.ts",
    ]);
  });

  it("takes the files of a unified diff, without a/ b/, /dev/null or a timestamp", () => {
    const diff = [
      "--- a/src/x.ts\t2026-01-01",
      "+++ b/src/x.ts",
      "@@ -1 +1 @@",
      "--- /dev/null",
      "+++ b/src/new.ts\r",
    ].join("\n");
    expect(patchPaths(diff)).toEqual(["src/x.ts", "src/new.ts"]);
  });
});
