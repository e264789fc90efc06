import type { ContextOrigin } from "../../data.js";
import type { Diagnostic } from "../../types.js";
import { dedupeParagraphs } from "../_paragraphs.js";

/** What dedupe compares: a file's path (for messages), its text and whose it is (default: the project's). */
export interface DedupeInput {
  path: string;
  content: string;
  origin?: ContextOrigin;
}

/**
 * Context files without the paragraphs a more authoritative file already
 * states. `files` are in prompt order (the user's first, then the
 * repository's, farthest first); authority is the user's files, then the
 * repository's nearest first, the order in which instructions win. A
 * repeated paragraph stays in the more authoritative file and is left out of
 * the other, which keeps its own paragraphs with a marker line where the
 * left-out ones stood; a file with nothing of its own is dropped. Each drop
 * and cut gets an `info`.
 */
export function dedupeContextFiles<T extends DedupeInput>(
  files: readonly T[],
): { files: T[]; diagnostics: Diagnostic[] } {
  const { dropped: _, trimmed: __, ...result } = dedupeWithDropped(files);
  return result;
}

/** A context file left out by dedupe: every paragraph of it stands in `containedIn`. */
export interface DroppedContextFile {
  path: string;
  /** The files that state its paragraphs, most authoritative first, joined with ", ". */
  containedIn: string;
}

/** A context file that lost some paragraphs to more authoritative files. */
export interface TrimmedContextFile {
  path: string;
  /** Paragraphs left out. */
  left: number;
  /** The files that state them, most authoritative first. */
  statedIn: string[];
}

/** {@link dedupeContextFiles}, also saying which files were dropped or cut (for `sysprompt explain`). */
export function dedupeWithDropped<T extends DedupeInput>(
  files: readonly T[],
): {
  files: T[];
  diagnostics: Diagnostic[];
  dropped: DroppedContextFile[];
  trimmed: TrimmedContextFile[];
} {
  const order = authorityOrder(files);
  const outcomes = dedupeParagraphs(
    order.map((i) => ({ label: files[i]?.path ?? "", text: files[i]?.content ?? "" })),
  );
  const byFile = new Map(order.map((fileIndex, k) => [fileIndex, outcomes[k]]));
  const kept: T[] = [];
  const diagnostics: Diagnostic[] = [];
  const dropped: DroppedContextFile[] = [];
  const trimmed: TrimmedContextFile[] = [];
  files.forEach((file, i) => {
    const outcome = byFile.get(i);
    if (!outcome || outcome.left === 0) {
      kept.push(file);
      return;
    }
    const where = outcome.statedIn.join(", ");
    if (outcome.whole) {
      diagnostics.push({
        level: "info",
        code: "context-duplicate",
        message: `not loaded: every paragraph of it is already stated in ${where}`,
        path: file.path,
      });
      dropped.push({ path: file.path, containedIn: where });
      return;
    }
    diagnostics.push({
      level: "info",
      code: "context-paragraphs-left-out",
      message: `${outcome.left === 1 ? "1 paragraph" : `${outcome.left} paragraphs`} left out, with a marker line: already stated in ${where}`,
      path: file.path,
    });
    trimmed.push({ path: file.path, left: outcome.left, statedIn: outcome.statedIn });
    kept.push({ ...file, content: outcome.text });
  });
  return { files: kept, diagnostics, dropped, trimmed };
}

/** Indexes of `files` most authoritative first: the user's in order, then the repository's nearest first. */
function authorityOrder(files: readonly DedupeInput[]): number[] {
  const user: number[] = [];
  const project: number[] = [];
  files.forEach((f, i) => {
    (f.origin === "user" ? user : project).push(i);
  });
  return [...user, ...project.reverse()];
}
