import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// One glob matcher for the patterns a repository writes (.gitignore lines and
// rule globs): `ignore`, built by newIgnore in src/_gitignore.ts and fed only
// boundedPattern's output, which keeps its matching linear (issue 24, item 3).
// A second loader would be a way to feed it unbounded `**` chains.

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

function sourceFiles(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => {
    const child = join(path, e.name);
    if (e.isDirectory()) return sourceFiles(child);
    return /\.[cm]?ts$/.test(e.name) ? [child] : [];
  });
}

/** Whether `text` loads a glob package as a value (a `require` or a non-type import). */
function loadsMatcher(text: string): boolean {
  return (
    /\(\s*"(ignore|picomatch|minimatch|micromatch|fast-glob)"\s*\)/.test(text) ||
    /import\s+(?!type\b)[^;]*from\s+"(ignore|picomatch|minimatch|micromatch|fast-glob)"/.test(text)
  );
}

describe("one glob matcher for repository patterns", () => {
  it("only src/_gitignore.ts loads a glob package", () => {
    const loaders = sourceFiles(SRC)
      .filter((file) => loadsMatcher(readFileSync(file, "utf8")))
      .map((file) => relative(SRC, file).split("\\").join("/"));
    expect(loaders).toEqual(["_gitignore.ts"]);
  });

  it("the check sees a loader", () => {
    expect(loadsMatcher('ig = createRequire(import.meta.url)("ignore")')).toBe(true);
    expect(loadsMatcher('import picomatch from "picomatch";')).toBe(true);
    expect(loadsMatcher('import type { Ignore } from "ignore";')).toBe(false);
  });
});
