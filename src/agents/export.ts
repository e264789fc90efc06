import { basename, join } from "node:path";
import { cacheRoot } from "../_cache-location.js";
import { sha256Hex } from "../_crypto.js";
import { type WriteOutcome, writeIfChanged } from "../_safe-write.js";
import type { ExportSpec, PathQuote } from "./types.js";

/**
 * The default export file of `agent` for the project whose real root is
 * `where.project`: `$XDG_CACHE_HOME/sysprompt/export/<agent>/<project>/<file>`
 * when that variable is an absolute path (the XDG spec ignores a relative
 * one), else under `~/.cache/sysprompt/export/`; beside the environment
 * cache, the one place outside a project that sysprompt writes to. One file
 * per project ({@link projectFolderName}): a cloned repository's export is
 * read only by sessions that name its file, never by another project's.
 * `root` is the `sysprompt` cache folder: every folder below it must be a
 * real folder.
 */
export function defaultExportPath(
  agent: string,
  spec: ExportSpec,
  where: { env: Readonly<Record<string, string | undefined>>; home: string; project: string },
): { path: string; root: string } {
  const root = cacheRoot(where.env, where.home);
  return { path: join(root, "export", agent, projectFolderName(where.project), spec.file), root };
}

/** How long a project's name may be in its export folder's name. */
const MAX_PROJECT_NAME = 40;

/**
 * The export folder's name of the project whose real root is `root`: its
 * name (letters, digits, `.`, `_`, `-`; for the reader) and the first 12 hex
 * digits of its path's SHA-256 (what tells two `app`s apart).
 */
export function projectFolderName(root: string): string {
  const name = basename(root)
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^\.+/, "")
    .slice(0, MAX_PROJECT_NAME);
  return `${name === "" ? "root" : name}-${sha256Hex(root).slice(0, 12)}`;
}

/** Characters a shell word may hold without quotes. */
const SHELL_SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/;

/**
 * What opencode's `{file:PATH}` cannot name: its loader replaces `{env:NAME}` in the raw text,
 * then takes `/\{file:[^}]+\}/g` from it before the JSON is parsed (ConfigVariable.substitute),
 * so a `}` ends the path, a `{env:` in it starts a variable (replaced through the next `}`), and
 * a JSON escape (`\"`, `\\`) is never undone: each names another file. A `{` alone is read as
 * it is. Run, opencode 1.18.33 (integrations/agents-e2e): `{file:…/kit}x/p.md}` sent the
 * sibling file `kit` as the prompt, `…/kit\"x/p.md` the folder `kit\"x`'s, `…/kit{env:V}x/p.md`
 * (V unset) the folder `kitx`'s; `…/kit{x/p.md` sent `p.md`.
 */
const OPENCODE_FILE_UNSAFE = /[}"\\]|\{env:/;

/**
 * What a double-quoted word of the shell and of a `.env` file do not both read as written
 * (the shell's `$`, `` ` ``, `\\`, `!`; dotenv's `\\n`; either's `"`).
 */
const ENV_DOUBLE_UNSAFE = /["$`\\!]/;

/**
 * `path` written for `quote`: a shell word, or the inside of a TOML or JSON string;
 * undefined when `quote` (opencode, env) cannot name it at all.
 */
export function quotePath(path: string, quote: "shell" | "toml" | "json"): string;
export function quotePath(path: string, quote: PathQuote): string | undefined;
export function quotePath(path: string, quote: PathQuote): string | undefined {
  if (quote === "shell") {
    return SHELL_SAFE.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
  }
  // A shell word that a `.env` file (dotenv's parse, Gemini CLI's) reads the same: dotenv keeps a
  // single-quoted value as written, so the shell's `'\''` for a `'` read as another path there
  // (review rev82d F1); such a path goes in double quotes when both read it as written, else nowhere.
  if (quote === "env") {
    if (SHELL_SAFE.test(path)) return path;
    if (!path.includes("'")) return `'${path}'`;
    return ENV_DOUBLE_UNSAFE.test(path) ? undefined : `"${path}"`;
  }
  if (quote === "opencode" && OPENCODE_FILE_UNSAFE.test(path)) return undefined;
  // JSON string escapes are TOML basic-string escapes too (\\, \", \n, \uXXXX); TOML
  // also refuses a raw DEL, which JSON leaves as it is.
  return JSON.stringify(path).slice(1, -1).replaceAll("\u007f", "\\u007f");
}

/**
 * The line to add to the agent's settings or command line, with the exported file's path in
 * it; undefined when the line's syntax cannot name that path (see {@link quotePath}).
 */
export function settingLine(spec: ExportSpec, path: string): string | undefined {
  const quoted = quotePath(path, spec.quote);
  return quoted === undefined ? undefined : spec.setting.replaceAll("{path}", quoted);
}

/**
 * Writes the prompt's text, exactly (as `render -o` does), to `path` only when its bytes differ from what is
 * there, never through a link (see `writeIfChanged`): an agent or a watcher
 * that reads the file sees it change only when the prompt did. `own`: the
 * default export file, sysprompt's own: 0600 in 0700 folders.
 *
 * @throws UnsafePathError when the path is a link, a folder, a FIFO…, or a
 * folder on the way below `within` is a link.
 */
export function writeExport(
  path: string,
  text: string,
  within?: string,
  own = false,
): Promise<WriteOutcome> {
  return writeIfChanged(path, text, {
    ...(within === undefined ? {} : { within }),
    ...(own ? { private: true } : {}),
  });
}
