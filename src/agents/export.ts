import { join } from "node:path";
import { cacheRoot } from "../_cache-location.js";
import { type WriteOutcome, writeIfChanged } from "../_safe-write.js";
import type { ExportSpec, PathQuote } from "./types.js";

/**
 * The default export folder of `agent`: `$XDG_CACHE_HOME/sysprompt/export/<agent>/`
 * when that variable is an absolute path (the XDG spec ignores a relative
 * one), else `~/.cache/sysprompt/export/<agent>/`; beside the environment
 * cache, the one place outside a project that sysprompt writes to. `root` is
 * the `sysprompt` cache folder: every folder below it must be a real folder.
 */
export function defaultExportPath(
  agent: string,
  spec: ExportSpec,
  where: { env: Readonly<Record<string, string | undefined>>; home: string },
): { path: string; root: string } {
  const root = cacheRoot(where.env, where.home);
  return { path: join(root, "export", agent, spec.file), root };
}

/** Characters a shell word may hold without quotes. */
const SHELL_SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/;

/** `path` written for `quote`: a shell word, or the inside of a TOML or JSON string. */
export function quotePath(path: string, quote: PathQuote): string {
  if (quote === "shell") {
    return SHELL_SAFE.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
  }
  // JSON string escapes are TOML basic-string escapes too (\\, \", \n, \uXXXX); TOML
  // also refuses a raw DEL, which JSON leaves as it is.
  return JSON.stringify(path).slice(1, -1).replaceAll("\u007f", "\\u007f");
}

/** The line to add to the agent's settings or command line, with the exported file's path in it. */
export function settingLine(spec: ExportSpec, path: string): string {
  return spec.setting.replaceAll("{path}", quotePath(path, spec.quote));
}

/**
 * Writes the prompt's text, exactly (as `render -o` does), to `path` only when its bytes differ from what is
 * there, never through a link (see `writeIfChanged`): an agent or a watcher
 * that reads the file sees it change only when the prompt did.
 *
 * @throws UnsafePathError when the path is a link, a folder, a FIFO…, or a
 * folder on the way below `within` is a link.
 */
export function writeExport(path: string, text: string, within?: string): Promise<WriteOutcome> {
  return writeIfChanged(path, text, within === undefined ? {} : { within });
}
