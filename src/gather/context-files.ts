import { stat } from "node:fs/promises";
import { dirname, join, parse as parsePath } from "node:path";
import { readTextFile, realpathOrSelf } from "../_fs.js";
import type { ContextFile } from "../data.js";
import type { Diagnostic, Layer } from "../types.js";
import { findProjectRoot, isWithin } from "./project-root.js";

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

/** Forward slashes, so prompts are byte-identical across platforms. */
export function toPosix(path: string): string {
  return path.replaceAll("\\", "/");
}

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
 * sockets with a candidate's name are skipped without being opened. Other
 * candidates beside the winner are not loaded (one file per folder); each gets
 * an `info` naming the one used, so a CLAUDE.md beside an AGENTS.md is not
 * ignored in silence.
 */
async function findContextFile(dir: string): Promise<{ path?: string; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  let winner: { name: string; path: string; dev: number; ino: number } | undefined;
  for (const name of CONTEXT_FILE_NAMES) {
    const path = join(dir, name);
    try {
      const s = await stat(path);
      if (winner) {
        // A case-insensitive file system answers AGENTS.MD with AGENTS.md: same file, no news.
        if (s.isFile() && (s.ino !== winner.ino || s.dev !== winner.dev)) {
          diagnostics.push({
            level: "info",
            code: "context-shadowed",
            message: `${name} is not loaded: ${winner.name} in the same folder is used (one context file per folder)`,
            path,
          });
        }
        continue;
      }
      if (s.isFile()) {
        winner = { name, path, dev: s.dev, ino: s.ino };
        continue;
      }
      diagnostics.push({
        level: "info",
        code: "context-not-file",
        message: `${name} is not a regular file; skipped without opening it`,
        path,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Missing is the normal case; a loop or a permission problem is worth saying.
      if (code !== "ENOENT" && code !== "ENOTDIR" && !winner) {
        diagnostics.push({
          level: "warning",
          code: "context-unreadable",
          message: `cannot inspect ${name}: ${(error as Error).message}`,
          path,
        });
      }
    }
  }
  return winner ? { path: winner.path, diagnostics } : { diagnostics };
}

/** A folder searched for a context file, and where its file's real path must stay. */
interface ContextFolder {
  dir: string;
  layer: LoadedContextFile["layer"];
  /**
   * For an untrusted project: the real path of the file must lie inside this
   * folder (compared after resolving links), or it is not loaded. Undefined:
   * links are followed anywhere.
   */
  confine?: string;
}

/**
 * The folders searched, in prompt order: the agent dir, then cwd's ancestors
 * from the outermost down. For an untrusted project a file in a folder at or
 * below the project root must resolve inside the project root; a file in a
 * folder above it (the user's own, not the project's) inside that folder.
 */
async function contextFolders(options: {
  cwd: string;
  agentDir: string;
  projectTrusted: boolean;
}): Promise<ContextFolder[]> {
  const folders: ContextFolder[] = [{ dir: options.agentDir, layer: "user" }];
  const chain = ancestorsOf(options.cwd);
  if (options.projectTrusted) {
    return [...folders, ...chain.map((dir) => ({ dir, layer: "project" as const }))];
  }
  const projectRoot = await findProjectRoot(options.cwd);
  const realRoot = await realpathOrSelf(projectRoot);
  for (const dir of chain) {
    const confine = isWithin(dir, projectRoot) ? realRoot : await realpathOrSelf(dir);
    folders.push({ dir, layer: "project", confine });
  }
  return folders;
}

/**
 * Context files in prompt order: the agent dir's file first, then one per
 * folder from the outermost ancestor of cwd down to cwd. The same real file
 * reached twice (an agent dir inside the project, a symlink) loads once.
 * With `projectTrusted: false`, a file whose real path leaves the project
 * root (or, above the root, the folder it was found in) is not loaded.
 */
export async function loadContextFiles(options: {
  cwd: string;
  agentDir: string;
  projectTrusted?: boolean;
}): Promise<{ files: LoadedContextFile[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const folders = await contextFolders({
    cwd: options.cwd,
    agentDir: options.agentDir,
    projectTrusted: options.projectTrusted !== false,
  });
  // Parallel look-ups, but diagnostics and files are collected in folder order.
  const found = await Promise.all(folders.map((f) => findContextFile(f.dir)));
  const reads = await Promise.all(
    found.map(async ({ path }, i) => {
      if (!path) return undefined;
      const real = await realpathOrSelf(path);
      const confine = folders[i]?.confine;
      if (confine !== undefined && !isWithin(real, confine)) return { real, escaped: confine };
      return { real, read: await readTextFile(path) };
    }),
  );
  const files: LoadedContextFile[] = [];
  const seen = new Set<string>();
  reads.forEach((entry, i) => {
    const path = found[i]?.path;
    const folder = folders[i];
    diagnostics.push(...(found[i]?.diagnostics ?? []));
    if (!entry || !path || !folder) return;
    if (!entry.read) {
      diagnostics.push({
        level: "warning",
        code: "context-outside-project",
        message: `not loaded: the project is not trusted and this file resolves to ${toPosix(entry.real)}, outside ${toPosix(entry.escaped)}`,
        path,
      });
      return;
    }
    diagnostics.push(...entry.read.diagnostics);
    if (!entry.read.ok || seen.has(entry.real)) return;
    seen.add(entry.real);
    files.push({ path: toPosix(path), content: entry.read.text.trim(), layer: folder.layer });
  });
  return { files, diagnostics };
}
