import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

// Node's recursive mkdir (`mkdirSync(p, { recursive: true })`, `fs.promises.mkdir` likewise;
// Node 20) spins for ever in C++, deaf to SIGTERM and Ctrl-C, where mkdir says ENOENT below a
// folder that exists: a checkout's `.cache -> /proc` with XDG_CACHE_HOME=$PWD/.cache held
// export at 100% CPU until SIGKILL (rev66d F7). Folders are made by makeFolderPath
// (src/_safe-write.ts): one plain mkdir a level, bounded by the path's depth.

function sourceFiles(path: string): string[] {
  if (path.endsWith(".ts")) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith(".ts"))
    .flatMap((e) => sourceFiles(join(path, e.name)));
}

/** The argument text of each `mkdir(`/`mkdirSync(` call in `text` (parentheses balanced). */
function mkdirCallArguments(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bmkdir(?:Sync)?\s*\(/g)) {
    let depth = 1;
    let at = (m.index ?? 0) + m[0].length;
    const start = at;
    for (; at < text.length && depth > 0; at++) {
      if (text[at] === "(") depth++;
      else if (text[at] === ")") depth--;
    }
    out.push(text.slice(start, at - 1));
  }
  return out;
}

describe("no recursive mkdir in src", () => {
  it("finds the calls it must (the scanner itself)", () => {
    expect(
      mkdirCallArguments(
        'fs.mkdirSync(join(a, "b"), { recursive: true }); await fsp.mkdir(x, {mode}); mkdir(y)',
      ),
    ).toEqual(['join(a, "b"), { recursive: true }', "x, {mode}", "y"]);
  });

  it("no mkdir call of src passes `recursive`", () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      for (const args of mkdirCallArguments(readFileSync(file, "utf8"))) {
        if (/\brecursive\b/.test(args)) found.push(`${relative(SRC, file)}: mkdir(${args})`);
      }
    }
    expect(found).toEqual([]);
  });
});
