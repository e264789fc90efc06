import { lutimesSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * One entry of a fixture tree. A key ending in `/` is a folder; `link` makes a
 * symlink with that target. `at` is the pinned mtime as `YYYY-MM-DD HH:MM`
 * (UTC); `size` fills the file with that many bytes unless `text` is given.
 */
export interface Spec {
  at: string;
  size?: number;
  text?: string;
  link?: string;
}

/** Seconds since the epoch for `YYYY-MM-DD HH:MM` UTC. */
export const at = (time: string): number => Date.parse(`${time.replace(" ", "T")}:00Z`) / 1000;

/**
 * Builds the tree `spec` describes under `root` (created if needed) and pins
 * every mtime. A git checkout does not keep mtimes, and creating an entry
 * touches its folder, so mtimes are set once everything exists, folders last
 * and deepest first. A folder not in the spec (made on the way) is pinned to
 * `defaultAt`.
 */
export function makeTree(
  root: string,
  spec: Record<string, Spec>,
  defaultAt = "2000-01-01 00:00",
): string {
  mkdirSync(root, { recursive: true });
  const folders = new Set<string>();
  const ensure = (dir: string) => {
    for (let d = dir; d !== "." && d !== ""; d = dirname(d)) folders.add(d);
    mkdirSync(join(root, dir), { recursive: true });
  };
  for (const [key, entry] of Object.entries(spec)) {
    const rel = key.replace(/\/$/, "");
    if (key.endsWith("/")) {
      ensure(rel);
    } else if (entry.link !== undefined) {
      ensure(dirname(rel));
      symlinkSync(entry.link, join(root, rel));
    } else {
      ensure(dirname(rel));
      writeFileSync(join(root, rel), entry.text ?? "x".repeat(entry.size ?? 0));
    }
  }
  for (const [key, entry] of Object.entries(spec)) {
    if (key.endsWith("/")) continue;
    const path = join(root, key);
    if (entry.link !== undefined) lutimesSync(path, at(entry.at), at(entry.at));
    else utimesSync(path, at(entry.at), at(entry.at));
  }
  const byDepth = [...folders].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of byDepth) {
    const time = spec[`${dir}/`]?.at ?? defaultAt;
    utimesSync(join(root, dir), at(time), at(time));
  }
  const rootTime = at(defaultAt);
  utimesSync(root, rootTime, rootTime);
  return root;
}

/** `count` files `prefix0…` in `dir`, one minute apart, the first the oldest. */
export function manyFiles(
  dir: string,
  count: number,
  start = "2026-01-01 00:00",
  size = 1,
): Record<string, Spec> {
  const spec: Record<string, Spec> = {};
  const base = at(start) * 1000;
  for (let i = 0; i < count; i++) {
    const time = new Date(base + i * 60_000).toISOString();
    spec[`${dir}/f${String(i).padStart(2, "0")}.txt`] = {
      at: `${time.slice(0, 10)} ${time.slice(11, 16)}`,
      size,
    };
  }
  return spec;
}
