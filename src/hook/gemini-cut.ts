import { join, resolve } from "node:path";
import { readTextFile } from "../_fs.js";
import { stripJsonComments } from "../_json-comments.js";
import type { HookWhere } from "./context.js";
import { GEMINI_SHELL_KEPT_CHARS } from "./reply.js";

/** Longest Gemini CLI settings file read for its threshold; a larger one is left unread. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * Where Gemini CLI 0.61 reads the settings that may set
 * `tools.truncateToolOutputThreshold` (loadSettings; it merges them, the
 * later winning): its system defaults and system settings
 * (`GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, `GEMINI_CLI_SYSTEM_SETTINGS_PATH`, else
 * beside `/etc/gemini-cli/settings.json` and the macOS and Windows places),
 * your `~/.gemini/settings.json` (`GEMINI_CLI_HOME` for `~`), and the
 * workspace's `<cwd>/.gemini/settings.json` unless cwd is that home.
 */
export function geminiSettingsFiles(cwd: string, where: HookWhere): string[] {
  const env = where.env;
  const system =
    env.GEMINI_CLI_SYSTEM_SETTINGS_PATH ||
    (process.platform === "darwin"
      ? "/Library/Application Support/GeminiCli/settings.json"
      : process.platform === "win32"
        ? "C:\\ProgramData\\gemini-cli\\settings.json"
        : "/etc/gemini-cli/settings.json");
  const defaults =
    env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || join(system, "..", "system-defaults.json");
  const home = env.GEMINI_CLI_HOME || where.home;
  const files = [defaults, system, join(home, ".gemini", "settings.json")];
  if (resolve(cwd) !== resolve(home)) files.push(join(cwd, ".gemini", "settings.json"));
  return files;
}

/**
 * Past how many characters Gemini CLI cuts a shell command's result, the
 * hook's text appended: `tools.truncateToolOutputThreshold`, 40,000 unless
 * a settings file sets it lower ({@link geminiSettingsFiles}). The lowest any
 * of them sets is taken, whichever wins in Gemini CLI's merge and whether
 * or not it trusts the folder (a project's file counts only there): a cut
 * taken too low only leaves the files for a later call, one too high cut
 * your glob rule out of what the model sees while it was kept as given
 * (review rev41c F2). None raises it: Gemini CLI also cuts at four
 * characters a token of what the model's context has left. A value of 0 or
 * less turns Gemini CLI's cut off, and leaves ours at 40,000. A file that
 * cannot be read or parsed sets nothing; a FIFO or a device is never opened
 * for reading ({@link readTextFile}).
 */
export async function geminiShellKept(cwd: string, where: HookWhere): Promise<number> {
  const values = await Promise.all(geminiSettingsFiles(cwd, where).map(thresholdIn));
  let kept = GEMINI_SHELL_KEPT_CHARS;
  for (const value of values) if (value !== undefined && value < kept) kept = value;
  return kept;
}

/** The positive threshold a settings file sets, or undefined. */
async function thresholdIn(path: string): Promise<number | undefined> {
  const read = await readTextFile(path, MAX_SETTINGS_BYTES);
  if (!read.ok) return undefined;
  let settings: unknown;
  try {
    settings = JSON.parse(stripJsonComments(read.text));
  } catch {
    return undefined;
  }
  const value = (settings as { tools?: { truncateToolOutputThreshold?: unknown } } | null)?.tools
    ?.truncateToolOutputThreshold;
  // Gemini CLI compares a string as JavaScript does, as the number it reads as.
  const threshold = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof threshold === "number" && Number.isFinite(threshold) && threshold > 0
    ? Math.floor(threshold)
    : undefined;
}
