import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * A folder of `count` entries named `name(i)`: hard links to a few empty seeds
 * in `seeds` (beside it unless named; ext4 allows 65,000 links to one file),
 * quick to make, each one entry.
 */
export function bigFolder(
  dir: string,
  count: number,
  { name = (i: number) => `f${i}`, seeds = dirname(dir) } = {},
): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const seed = join(seeds, `seed${Math.floor(i / 60_000)}`);
    if (i % 60_000 === 0) writeFileSync(seed, "");
    linkSync(seed, join(dir, name(i)));
  }
}
