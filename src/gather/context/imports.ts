import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { pushAll } from "../../_arrays.js";
import { realpath } from "../../_io.js";
import { checkpoint } from "../../_pace.js";
import { isWithin, toPosix } from "../../_paths.js";
import { elementText, withElementNames } from "../../_prompt-text.js";
import {
  checkoutReach,
  type HeldWalk,
  linkOutRefusal,
  placeRefusal,
  type Reach,
  type Refusal,
  type RepoCapped,
  reachRefusal,
  readRepoCapped,
  refusalDiagnostic,
  stopRefusal,
  withCutMarker,
} from "../../repo-files/index.js";
import type { Diagnostic } from "../../types.js";
import { findImportTokens, type ImportToken } from "./import-tokens.js";

/** Imports are followed this many levels deep; the content at the last level keeps its own imports as written. */
export const MAX_IMPORT_DEPTH = 5;

/**
 * At most this many imports are tried per context file (all levels together);
 * later ones stay as written, with one `info`. Real files have a handful; a
 * file of 40,000 `@x` tokens would otherwise cost 40,000 lookups and as many
 * diagnostics.
 */
export const MAX_IMPORTS_PER_FILE = 100;

/** What one top-level context file's expansion has used so far. */
export interface ImportState {
  /** Real paths already in the file (start with the file's own): a cycle or a repeat. */
  visited: Set<string>;
  /** Imports tried so far, against {@link MAX_IMPORTS_PER_FILE}. */
  tried: number;
  /** When given, the real path of each imported file that was cut at `maxBytes` is added here. */
  cut?: string[];
  /** Bytes of text this file and its imports have brought so far, against `scope.maxTotalBytes`. */
  bytes?: number;
  /**
   * Reads shared by every context file of one load, by real path: a file that
   * several ancestors import is read once.
   */
  reads?: Map<string, Promise<RepoCapped>>;
  /** Set once `bytes` reached `scope.maxTotalBytes`: every later import stays as written. */
  full?: boolean;
}

/** Where the imports of one context file may lead, and how much of each is read. */
export interface ImportScope {
  /** The user's home, for `@~/…`. */
  home: string;
  /** A user file's imports: the agent dir, whose pi configuration is private too (review rev104a F2). */
  agentDir?: string | undefined;
  /** Cap of each imported file, in bytes. */
  maxBytes: number;
  /**
   * Once the file and its imports hold this many bytes, its remaining imports
   * stay as written (one `info`). Default: no limit.
   */
  maxTotalBytes?: number;
  /**
   * A user file's imports (no `reach`): folders an import must resolve into,
   * after following links. List each folder both as written and as its real path.
   */
  allowed: readonly string[];
  /** The allowed folders in words, for messages ("the home folder /h or the agent dir /a"). */
  allowedText: string;
  /** Once it fires, no further import is read (the expansion rejects with the signal's reason). */
  signal?: AbortSignal;
  /** A project file's imports: the door's reach, which alone says where they may lead (and, untrusted, what is private). */
  reach?: Reach;
  /**
   * A user file's imports (no `reach`): the walk that holds them to other
   * repositories' links ({@link heldLinks}). An import that meets such a
   * repository's link out of it is refused; one that ends in such a
   * repository is its file, read (with its own imports) through the door
   * rooted at it.
   */
  held?: HeldWalk;
  /** The render's trust in the project, taken by another repository's door (a kit's). Default: trusted. */
  trusted?: boolean;
  /** The folder the render starts in: its project, trusted, is the one checkout whose private files your imports reach ({@link checkoutReach}). */
  cwd?: string | undefined;
  /**
   * A user file's imports: the elements your files on the way to this one
   * open or close (`<team_policy>` around `@~/kit/base.md`), which a kit's
   * text imported here may not write (rev48a L1). Set by {@link expandImports}.
   */
  ownNames?: ReadonlySet<string>;
}

/** The file whose text is being expanded. */
export interface Importer {
  /** Where diagnostics point. */
  path: string;
  /** Relative imports resolve against this folder: the importing file's real folder. */
  dir: string;
}

export interface Expanded {
  text: string;
  diagnostics: Diagnostic[];
}

/**
 * Replaces each `@path` import in `text` (see {@link findImportTokens} for
 * what counts as one) with the imported file's text, itself expanded, up to
 * {@link MAX_IMPORT_DEPTH} levels. `state.visited` holds the real paths already
 * in this top-level file (start it with the file's own): an import of one of
 * them (a cycle or a repeat) stays as written. So does an import that is missing,
 * unreadable, not a regular file, binary, or that the door refuses
 * (`scope.reach`; a user file's: outside `scope.allowed`); each of these gets
 * a diagnostic at the token. An imported
 * file over `scope.maxBytes` is cut and ends with a marker line.
 */
export async function expandImports(
  text: string,
  importer: Importer,
  scope: ImportScope,
  state: ImportState,
  depth = 0,
): Promise<Expanded> {
  const tokens = findImportTokens(text);
  const diagnostics: Diagnostic[] = [];
  if (tokens.length === 0) return { text, diagnostics };
  if (depth >= MAX_IMPORT_DEPTH) {
    const [first] = tokens;
    diagnostics.push({
      level: "info",
      code: "import-depth",
      message: `imports are followed ${MAX_IMPORT_DEPTH} levels deep; ${tokens.length === 1 ? "the import in this file is" : `the ${tokens.length} imports in this file are`} left as written`,
      path: importer.path,
      // At the first of them.
      ...(first ? { line: first.line, column: first.column } : {}),
    });
    return { text, diagnostics };
  }
  // Your file's own elements: a kit's text imported below it may neither open nor close them.
  if (!scope.reach && scope.held) {
    scope = { ...scope, ownNames: withElementNames(scope.ownNames ?? new Set(), [text]) };
  }
  const pieces: string[] = [];
  let copied = 0;
  for (const token of tokens) {
    if (state.tried === MAX_IMPORTS_PER_FILE) {
      state.tried++;
      diagnostics.push({
        level: "info",
        code: "import-limit",
        message: `more than ${MAX_IMPORTS_PER_FILE} imports in one context file; the rest are left as written`,
        path: importer.path,
        line: token.line,
        column: token.column,
      });
    }
    if (state.tried > MAX_IMPORTS_PER_FILE) break;
    if (state.full) break;
    if ((state.bytes ?? 0) >= (scope.maxTotalBytes ?? Number.POSITIVE_INFINITY)) {
      state.full = true;
      diagnostics.push({
        level: "info",
        code: "import-total",
        message: `the context files together are capped at ${scope.maxTotalBytes} bytes and this file has reached it; the rest of its imports are left as written`,
        path: importer.path,
        line: token.line,
        column: token.column,
      });
      break;
    }
    state.tried++;
    await checkpoint(scope.signal);
    const at = (d: Omit<Diagnostic, "path" | "line" | "column">): Diagnostic => ({
      ...d,
      path: importer.path,
      line: token.line,
      column: token.column,
    });
    const outcome = await importOne(token, importer, scope, state, depth, at);
    pushAll(diagnostics, outcome.diagnostics);
    if (outcome.text === undefined) continue;
    pieces.push(text.slice(copied, token.start), outcome.text);
    copied = token.end;
  }
  pieces.push(text.slice(copied));
  return { text: pieces.join(""), diagnostics };
}

/** The words of an `import-missing` diagnostic: `written` (`@x.md`) names no file at `target`. */
export function missingImportMessage(written: string, target: string): string {
  return `${written}${MISSING_AT}${target}${LEFT_AS_WRITTEN}`;
}

const MISSING_AT = ": no file at ";
const LEFT_AS_WRITTEN = "; left as written";

/**
 * Of an `import-missing` diagnostic's message, the import as written and the
 * part of `left` (a path left out of a copy) its missing target lies in, when
 * it is `left` or below it; else undefined. Matched against the one path
 * known, so a path holding these words cannot mislead it.
 */
export function missingImportIn(
  message: string,
  left: string,
): { written: string; target: string } | undefined {
  const exact = `${MISSING_AT}${left}${LEFT_AS_WRITTEN}`;
  if (message.endsWith(exact)) return { written: message.slice(0, -exact.length), target: left };
  // Below it: the target comes after the import as written, so the last match is the target's.
  const at = message.lastIndexOf(`${MISSING_AT}${left}${sep}`);
  if (at < 0 || !message.endsWith(LEFT_AS_WRITTEN)) return undefined;
  const target = message.slice(at + MISSING_AT.length, -LEFT_AS_WRITTEN.length);
  return { written: message.slice(0, at), target };
}

async function importOne(
  token: ImportToken,
  importer: Importer,
  scope: ImportScope,
  state: ImportState,
  depth: number,
  at: (d: Omit<Diagnostic, "path" | "line" | "column">) => Diagnostic,
): Promise<{ text?: string; diagnostics: Diagnostic[] }> {
  const written = token.quoted ? `@"${token.path}"` : `@${token.path}`;
  const target = resolveImport(token.path, importer.dir, scope.home);
  const { reach } = scope;
  const refuse = (refusal: Refusal) => {
    const d = refusalDiagnostic(importer.path, refusal, "import");
    // `@/components/x` is a TypeScript path alias more often than a file of `/`.
    const level = refusal.reason === "outside" && looksLikeAlias(token) ? "info" : d.level;
    // A private file's refusal ends with how to allow it, not with what was kept.
    const kept = refusal.reason === "private" ? "" : "; left as written";
    return { diagnostics: [at({ ...d, level, message: `${written}: ${d.message}${kept}` })] };
  };
  const outside = (where: string) => ({
    diagnostics: [
      at({
        level: looksLikeAlias(token) ? "info" : "warning",
        code: "import-outside",
        message: `${written} leads to ${where}, outside ${scope.allowedText}; left as written`,
      }),
    ],
  });
  // Checked before touching the file system, so nothing outside is even looked at.
  if (reach) {
    const early = placeRefusal(target, unlinked(target, reach), reach, true);
    if (early) return refuse(early);
  } else if (!inScope(target, scope)) return outside(target);
  let real: string;
  try {
    real = await realpath(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      // A bare word (`@alice`, `@todo`) is more likely a mention than a broken
      // import, and `@types/node` an npm package.
      const looksLikePath =
        (token.path.includes("/") || token.path.includes(".")) && !looksLikeScope(token);
      return {
        diagnostics: [
          at({
            level: looksLikePath ? "warning" : "info",
            code: "import-missing",
            message: missingImportMessage(written, target),
          }),
        ],
      };
    }
    return unreadable(written, (error as Error).message, at);
  }
  // The door's verdict: where it leads, and the name it was reached by (`@./x` -> `.env`, `@./.env` -> x).
  if (reach) {
    const refusal = await reachRefusal(target, real, reach, true);
    if (refusal) return refuse(refusal);
  } else if (!inScope(real, scope)) return outside(real);
  // Your file's import into another repository (a kit's file): its links and imports stay in it.
  let within = scope;
  if (!reach && scope.held) {
    const walked = await scope.held(target);
    if (walked.kind === "link-out") return refuse(linkOutRefusal(walked));
    if (walked.kind === "stopped") return refuse(stopRefusal(walked));
    if (walked.repository !== undefined) {
      const root = walked.repository;
      const { held: _, ...rest } = scope;
      // The kit's door: its private files (`.env`, what it ignores) are held in every render but
      // its own trusted one (rev109a F2). Its private-path checks hear the render's signal (fx92d).
      const kit = await checkoutReach(root, {
        home: scope.home,
        trusted: scope.trusted !== false,
        cwd: scope.cwd,
        signal: scope.signal,
      });
      within = { ...rest, reach: kit, allowedText: `the repository ${toPosix(root)}` };
    }
  }
  if (state.visited.has(real)) {
    return {
      diagnostics: [
        at({
          level: "info",
          code: "import-repeat",
          message: `${written}: ${real} is already part of this context file (a cycle or a repeat); left as written`,
        }),
      ],
    };
  }
  const read = await readShared(real, within, state);
  if (!read.ok && read.reason === "refused") return refuse(read.refusal);
  if (!read.ok) return unreadable(written, read.diagnostics[0]?.message ?? read.reason, at);
  state.visited.add(real);
  state.bytes = (state.bytes ?? 0) + Buffer.byteLength(read.text);
  const inner = await expandImports(
    read.text,
    { path: real, dir: dirname(real) },
    within,
    state,
    depth + 1,
  );
  let text = inner.text.trimEnd();
  if (read.omitted > 0) {
    text = withCutMarker(text, read.omitted, scope.maxBytes);
    state.cut?.push(real);
  }
  // A kit's text (another repository's) inside your file: the repository's text, which writes
  // none of your file's elements and leaves no fence or comment open over the rest of it.
  if (within !== scope) text = elementText(text, scope.ownNames ?? new Set()).trimEnd();
  return { text, diagnostics: [...read.diagnostics, ...inner.diagnostics] };
}

/**
 * `@types/node`, `@scope/pkg/…`: a first segment without a dot, under no
 * `./`, `../`, `~/` or `/`, and a last segment without a file extension.
 */
function looksLikeScope(token: ImportToken): boolean {
  if (token.quoted) return false;
  const path = token.path;
  if (!/^[A-Za-z0-9_-]/.test(path) || !path.includes("/")) return false;
  const segments = path.split("/");
  return !(segments[0] ?? "").includes(".") && !(segments.at(-1) ?? "").includes(".");
}

/**
 * Top folders of Linux and macOS file systems where secrets and user files
 * live: `@/etc/passwd` is a path, `@/components/Button` or `@/lib/utils` a
 * TypeScript alias (so `lib`, `bin` and the like are not listed).
 */
const SYSTEM_TOP_FOLDERS = new Set(
  "dev etc home mnt opt private proc root srv sys tmp usr var Applications Library System Users Volumes".split(
    " ",
  ),
);

function looksLikeAlias(token: ImportToken): boolean {
  if (token.quoted || !token.path.startsWith("/") || token.path.startsWith("//")) return false;
  return !SYSTEM_TOP_FOLDERS.has(token.path.split("/")[1] ?? "");
}

/**
 * One read per real path, reach and load: the promise is shared, so parallel
 * files wait for the same read. Through the door, as a path a file wrote.
 */
function readShared(real: string, scope: ImportScope, state: ImportState): Promise<RepoCapped> {
  // Heard here, where the read begins, not only before the import's look-ups:
  // a deadline that fires while its real path is resolved must not start a read.
  if (scope.signal?.aborted) return Promise.reject(scope.signal.reason);
  const read = () =>
    // Its way was walked when it was resolved (`scope.held`): a kit's file has its reach by now.
    readRepoCapped(real, {
      reach: scope.reach,
      own: undefined,
      named: true,
      maxBytes: scope.maxBytes,
      home: scope.home,
      agentDir: scope.agentDir,
      signal: scope.signal,
    });
  if (!state.reads) return read();
  const key = `${scope.reach?.realRoot ?? ""}\0${real}`;
  let shared = state.reads.get(key);
  if (shared === undefined) {
    shared = read();
    state.reads.set(key, shared);
  }
  return shared;
}

/** A user file's import (no reach): within the folders it may lead to. */
function inScope(path: string, scope: ImportScope): boolean {
  return scope.allowed.some((folder) => isWithin(path, folder));
}

/** Where `path` leads when no link is on the way: under the root as written, the same place under the real root. */
function unlinked(path: string, reach: Reach): string {
  return isWithin(path, reach.root) ? join(reach.realRoot, relative(reach.root, path)) : path;
}

function unreadable(
  written: string,
  why: string,
  at: (d: Omit<Diagnostic, "path" | "line" | "column">) => Diagnostic,
) {
  return {
    diagnostics: [
      at({
        level: "warning",
        code: "import-unreadable",
        message: `${written}: ${why}; left as written`,
      }),
    ],
  };
}

/** `~/x` from the home, `/x` as is, anything else from the importing file's folder. */
export function resolveImport(path: string, dir: string, home: string): string {
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(dir, path);
}
