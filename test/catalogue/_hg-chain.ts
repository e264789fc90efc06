import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../api/_helpers.js";

/**
 * `copies` nested Mercurial working copies (`p/d/d/…`), each `.hg/hgrc` naming as its ignore
 * file one 250 KiB glob file `big` at the bottom (heavy patterns), and an empty home folder.
 */
export function hgChain(copies: number): { base: string; deepest: string } {
  const base = tempDir();
  const lines = ["syntax: glob"];
  for (let i = 0, size = 0; size < 250 * 1024; i++) {
    const line = `**/a${i}*b*c*/**/*.x${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  let dir = join(base, "p");
  for (let k = 0; k < copies; k++) {
    mkdirSync(join(dir, ".hg"), { recursive: true });
    writeFileSync(join(dir, ".hg", "hgrc"), `[ui]\nignore = ${"d/".repeat(copies - k)}big\n`);
    dir = join(dir, "d");
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "big"), `${lines.join("\n")}\n`);
  mkdirSync(join(base, "home"), { recursive: true });
  return { base, deepest: dir };
}
