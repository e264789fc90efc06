import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../api/_helpers.js";

/** A project whose folders l0/, l0/l1/, l0/l1/l2/… each hold an AGENTS.md (or `name`) of `bytes` (one fewer once trimmed), and a file at the bottom. */
export function chain(levels: number, bytes: number, name = "AGENTS.md") {
  const base = tempDir();
  const cwd = join(base, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  let dir = cwd;
  for (let l = 0; l < levels; l++) {
    dir = join(dir, `l${l}`);
    mkdirSync(dir);
    writeFileSync(join(dir, name), `${`Level ${l}. `.padEnd(bytes - 1, "x")}\n`);
  }
  writeFileSync(join(dir, "f.ts"), "");
  const home = join(base, "home");
  mkdirSync(home);
  return { cwd, home, base, path: join(dir, "f.ts") };
}
