import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../api/_helpers.js";

/**
 * A project whose folders l0/, l0/l1/, l0/l1/l2/… each hold an AGENTS.md (or `name`): `text(level)`,
 * or `Level N. x…` of `text` bytes (one fewer once trimmed); and a file at the bottom.
 */
export function chain(
  levels: number,
  text: number | ((level: number) => string),
  name = "AGENTS.md",
) {
  const base = tempDir();
  const cwd = join(base, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  let dir = cwd;
  for (let l = 0; l < levels; l++) {
    dir = join(dir, `l${l}`);
    mkdirSync(dir);
    const content =
      typeof text === "number" ? `${`Level ${l}. `.padEnd(text - 1, "x")}\n` : text(l);
    writeFileSync(join(dir, name), content);
  }
  writeFileSync(join(dir, "f.ts"), "");
  const home = join(base, "home");
  mkdirSync(home);
  return { cwd, home, base, path: join(dir, "f.ts") };
}
