import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.c?ts$/.test(e.name) ? [path] : [];
  });
}

// Token counts of a prompt a repository wrote must stop being exact at the render's
// deadline (3 MB of words took seconds to count after it): one counter does that,
// boundedCounter in src/tokens.ts, and every count goes through it.
describe("one token counter", () => {
  const files = sourceFiles(SRC).map((path) => ({
    name: relative(SRC, path),
    text: readFileSync(path, "utf8"),
  }));

  it("only src/tokens.ts loads the tokenizer", () => {
    const loading = files.filter((f) => /["'`]gpt-tokenizer[/"'`]/.test(f.text)).map((f) => f.name);
    expect(loading).toEqual(["tokens.ts"]);
  });

  it("no other file counts with the unbounded counters", () => {
    const unbounded = files
      .filter((f) => f.name !== "tokens.ts" && /\b(?:tokenCounter|memoTokenCounter)\b/.test(f.text))
      .map((f) => f.name);
    expect(unbounded).toEqual([]);
  });
});
