import { stat } from "node:fs/promises";
import { dirname, join, parse as parsePath } from "node:path";
import { readTextFile, realpathOrSelf } from "../_fs.js";
import { toPosix } from "../_paths.js";
import type { ContextFile } from "../data.js";
import type { Diagnostic, Layer } from "../types.js";

/** In each folder the first regular file among these is its context file. */
export const CONTEXT_FILE_NAMES: readonly string[] = [
  "AGENTS.override.md",
  "AGENTS.md",
  "AGENTS.MD",
  "CLAUDE.md",
  "CLAUDE.MD",
];

export interface LoadedContextFile extends ContextFile {
  layer: Exclude<Layer, "builtin" | "option">;
}

// Moved to src/_paths.ts; re-exported for existing importers.
export { toPosix };

/** cwd and its ancestors, outermost first. */
export function ancestorsOf(cwd: string): string[] {
  const out: string[] = [];
  const root = parsePath(cwd).root;
  let dir = cwd;
  for (;;) {
    out.push(dir);
    if (dir === root) break;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return out.reverse();
}

/**
 * The first candidate in `dir` that is a regular file. Folders, FIFOs and
 * sockets with a candidate's name are skipped without being opened.
 */
async function findContextFile(dir: string): Promise<{ path?: string; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  for (const name of CONTEXT_FILE_NAMES) {
    const path = join(dir, name);
    try {
      const s = await stat(path);
      if (s.isFile()) return { path, diagnostics };
      diagnostics.push({
        level: "info",
        code: "context-not-file",
        message: `${name} is not a regular file; skipped without opening it`,
        path,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Missing is the normal case; a loop or a permission problem is worth saying.
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        diagnostics.push({
          level: "warning",
          code: "context-unreadable",
          message: `cannot inspect ${name}: ${(error as Error).message}`,
          path,
        });
      }
    }
  }
  return { diagnostics };
}

/**
 * Context files in prompt order: the agent dir's file first, then one per
 * folder from the outermost ancestor of cwd down to cwd. The same real file
 * reached twice (an agent dir inside the project, a symlink) loads once.
 */
export async function loadContextFiles(options: {
  cwd: string;
  agentDir: string;
}): Promise<{ files: LoadedContextFile[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const folders: { dir: string; layer: LoadedContextFile["layer"] }[] = [
    { dir: options.agentDir, layer: "user" },
    ...ancestorsOf(options.cwd).map((dir) => ({ dir, layer: "project" as const })),
  ];
  // Parallel look-ups, but diagnostics and files are collected in folder order.
  const found = await Promise.all(folders.map((f) => findContextFile(f.dir)));
  const reads = await Promise.all(
    found.map(async ({ path }) =>
      path ? { read: await readTextFile(path), real: await realpathOrSelf(path) } : undefined,
    ),
  );
  const files: LoadedContextFile[] = [];
  const seen = new Set<string>();
  reads.forEach((entry, i) => {
    const path = found[i]?.path;
    const folder = folders[i];
    diagnostics.push(...(found[i]?.diagnostics ?? []));
    if (!entry || !path || !folder) return;
    diagnostics.push(...entry.read.diagnostics);
    if (!entry.read.ok || seen.has(entry.real)) return;
    seen.add(entry.real);
    files.push({ path: toPosix(path), content: entry.read.text.trim(), layer: folder.layer });
  });
  return { files, diagnostics };
}
