import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// A catalogue fixture is a small description, built in a temp folder at test
// time: FIFOs, sockets, symlinks, unreadable files, names that are not UTF-8
// and sparse 50 MB files cannot live in git. Text-only fixtures may also sit
// in `test/fixtures/catalogue/<case>/`, copied first.

/** One thing to put at a path (relative to the case's root). */
export type Entry =
  | string
  | Uint8Array
  | { dir: true; mode?: number }
  | { text: string | Uint8Array; mode: number }
  | { symlink: string }
  | { fifo: true }
  | { socket: true }
  /** A sparse file of `size` bytes that starts with `head`: no disk space, any size. */
  | { sparse: number; head: string };

/** `[path, entry]`; a path given as bytes may hold a name that is not UTF-8. */
export type Layout = readonly (readonly [string | Uint8Array, Entry])[];

export const STATIC_FIXTURES = fileURLToPath(new URL("../fixtures/catalogue/", import.meta.url));

/** The bytes of a path under `root`: `root/` then `parts`, each a string or raw bytes. */
export function bytePath(...parts: (string | number[])[]): Uint8Array {
  return Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));
}

function under(root: string, path: string | Uint8Array): string | Buffer {
  return typeof path === "string"
    ? join(root, path)
    : Buffer.concat([Buffer.from(`${root}/`), Buffer.from(path)]);
}

function parentOf(path: string | Buffer): string | Buffer {
  if (typeof path === "string") return dirname(path);
  return path.subarray(0, path.lastIndexOf(0x2f));
}

/**
 * Builds `layout` under `root`, after copying the static fixture `name` if
 * there is one. Returns what gives the modes back, so the temp folder can be
 * removed by a user who is not root.
 */
export async function buildLayout(root: string, name: string, layout: Layout): Promise<() => void> {
  const fixture = join(STATIC_FIXTURES, name);
  if (existsSync(fixture)) cpSync(fixture, root, { recursive: true, verbatimSymlinks: true });
  // Modes last: a folder made unreadable first could not be filled.
  const modes: [string | Buffer, number][] = [];
  for (const [relative, entry] of layout) {
    const path = under(root, relative);
    mkdirSync(parentOf(path), { recursive: true });
    if (typeof entry === "string" || entry instanceof Uint8Array) {
      writeFileSync(path, entry);
    } else if ("dir" in entry) {
      mkdirSync(path, { recursive: true });
      if (entry.mode !== undefined) modes.push([path, entry.mode]);
    } else if ("mode" in entry) {
      writeFileSync(path, entry.text);
      modes.push([path, entry.mode]);
    } else if ("symlink" in entry) {
      symlinkSync(entry.symlink, path);
    } else if ("fifo" in entry) {
      execFileSync("mkfifo", [path.toString()]);
    } else if ("socket" in entry) {
      await makeSocket(path.toString());
    } else {
      writeFileSync(path, entry.head);
      truncateSync(path, entry.sparse);
    }
  }
  for (const [path, mode] of modes) chmodSync(path, mode);
  return () => {
    for (const [path] of modes) chmodSync(path, 0o755);
  };
}

/**
 * A socket file with nobody listening: bound under a second name, hard-linked
 * to `path`, and the server closed (which removes only the name it bound).
 */
async function makeSocket(path: string): Promise<void> {
  const bound = `${path}.bound`;
  const server = createServer();
  await new Promise<void>((done) => server.listen(bound, done));
  linkSync(bound, path);
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(bound, { force: true });
}

/**
 * Takes `paths` out of the project, so the same root renders clean: each is
 * moved to `<root>/.removed/` (outside every folder a render reads), which
 * costs one rename even for a folder of 200,000 entries; the temp folder goes
 * as a whole after the test.
 */
export function removePaths(root: string, paths: readonly (string | Uint8Array)[]): void {
  const aside = join(root, ".removed");
  mkdirSync(aside, { recursive: true });
  paths.forEach((relative, i) => {
    const path = under(root, relative);
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats) return;
    // Never through a link: chmod follows it, and it may point at a parent.
    if (stats.isDirectory()) chmodSync(path, 0o755);
    renameSync(path, join(aside, String(i)));
  });
}
