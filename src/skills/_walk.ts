import type { Dirent } from "node:fs";
import { join } from "node:path";
import { kindOfPath, readTextFile, undecodableName } from "../_fs.js";
import { addGitignore, type Ignore, isIgnored } from "../_gitignore.js";
import { readdir, readlink, realpath } from "../_io.js";
import type { Diagnostic } from "../types.js";

/** The file that makes a folder one skill. */
export const SKILL_FILE = "SKILL.md";

/** A file the walk found that may be a skill. */
export interface SkillCandidate {
  filePath: string;
  /** A `.md` file lying directly in the root: a skill only if it has a description. */
  loose: boolean;
}

type Kind = "file" | "dir" | "other" | "missing";

/**
 * Lists the skill files under one skills root. A folder holding `SKILL.md` is
 * one skill and the walk stops there; otherwise it recurses, skipping
 * dot-entries, `node_modules` and whatever the `.gitignore` files along the way
 * ignore. Symlinks are followed; a folder whose real path was already visited
 * is not entered again, so link loops end. Listings are sorted, so the order
 * is the same on every machine.
 */
export async function walkSkillsRoot(
  root: string,
): Promise<{ candidates: SkillCandidate[]; diagnostics: Diagnostic[] }> {
  const candidates: SkillCandidate[] = [];
  const diagnostics: Diagnostic[] = [];
  const visited = new Set<string>();

  // `rel` is the "/"-separated path below the root ("" for the root itself);
  // `rules` holds every .gitignore seen on the way down, rebased onto the root.
  const walk = async (dir: string, rel: string, rules: Ignore | undefined): Promise<void> => {
    let real: string;
    let entries: Dirent[];
    try {
      real = await realpath(dir);
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      diagnostics.push(
        (missing ? await undecodableName(dir, "folder") : undefined) ?? {
          level: "warning",
          code: "skills-dir-unreadable",
          message: `cannot list folder: ${error instanceof Error ? error.message : String(error)}`,
          path: dir,
        },
      );
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);

    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const kinds = new Map<string, Kind>();
    const kindOf = async (entry: Dirent): Promise<Kind> => {
      let kind = kinds.get(entry.name);
      if (kind === undefined) {
        kind = entry.isSymbolicLink()
          ? await kindOfPath(join(dir, entry.name))
          : entry.isDirectory()
            ? "dir"
            : entry.isFile()
              ? "file"
              : "other";
        kinds.set(entry.name, kind);
      }
      return kind;
    };

    const gitignore = entries.find((e) => e.name === ".gitignore");
    if (gitignore && (await kindOf(gitignore)) === "file") {
      const read = await readTextFile(join(dir, ".gitignore"));
      diagnostics.push(...read.diagnostics);
      if (read.ok) {
        rules = addGitignore(rules, read.text, rel);
      }
    }

    const kept: { entry: Dirent; kind: Kind }[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const kind = await kindOf(entry);
      if (kind === "missing") {
        // A dangling link or one that loops on itself: nothing to read. A
        // SKILL.md is surely meant to be a skill, so it is not passed in silence.
        if (entry.name === SKILL_FILE) diagnostics.push(await brokenLink(join(dir, entry.name)));
        continue;
      }
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (isIgnored(rules, kind === "dir" ? `${path}/` : path)) continue;
      kept.push({ entry, kind });
    }

    // A SKILL.md that is not a regular file (a folder, a FIFO) still marks the
    // skill folder; reading it later reports why it cannot be loaded.
    if (kept.some(({ entry }) => entry.name === SKILL_FILE)) {
      candidates.push({ filePath: join(dir, SKILL_FILE), loose: false });
      return;
    }
    for (const { entry, kind } of kept) {
      const path = join(dir, entry.name);
      if (kind === "dir") {
        await walk(path, rel === "" ? entry.name : `${rel}/${entry.name}`, rules);
      } else if (kind === "file" && rel === "" && entry.name.endsWith(".md")) {
        candidates.push({ filePath: path, loose: true });
      }
    }
  };

  await walk(root, "", undefined);
  return { candidates, diagnostics };
}

/** A SKILL.md link that leads to no file. */
async function brokenLink(path: string): Promise<Diagnostic> {
  // Replaced by something else since it was listed: the target is unknown.
  const target = await readlink(path).catch(() => "?");
  return {
    level: "warning",
    code: "symlink-broken",
    message: `${SKILL_FILE} is a symbolic link to ${target}, which leads to no file (its target is missing, or the links loop); skipped`,
    path,
  };
}
