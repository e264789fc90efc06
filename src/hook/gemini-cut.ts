import { join, resolve } from "node:path";
import { readTextFile } from "../_fs.js";
import { readGeminiSettings, stripJsonComments } from "../gather/rules/gemini-settings.js";
import { projectReach } from "../repo-files/index.js";
import type { HookWhere } from "./context.js";
import { GEMINI_SHELL_KEPT_CHARS } from "./reply.js";

/** Longest Gemini CLI settings file read for its threshold; a larger one is left unread. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * Where Gemini CLI 0.61 reads the settings of yours and the machine's that
 * may set `tools.truncateToolOutputThreshold` (loadSettings; it merges them
 * with the workspace's, the later winning): its system defaults and system
 * settings (`GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, `GEMINI_CLI_SYSTEM_SETTINGS_PATH`,
 * else beside `/etc/gemini-cli/settings.json` and the macOS and Windows
 * places) and your `~/.gemini/settings.json` (`GEMINI_CLI_HOME` for `~`).
 */
export function geminiOwnSettings(where: HookWhere): string[] {
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
  return [defaults, system, join(geminiHome(where), ".gemini", "settings.json")];
}

/** The home Gemini CLI keeps `.gemini` in. */
const geminiHome = (where: HookWhere) => where.env.GEMINI_CLI_HOME || where.home;

/**
 * Past how many characters Gemini CLI cuts a shell command's result, the
 * hook's text appended: `tools.truncateToolOutputThreshold`, 40,000 unless
 * a settings file sets it lower: yours and the machine's ({@link geminiOwnSettings}),
 * or the workspace's `<cwd>/.gemini/settings.json`, read through the door
 * (`readGeminiSettings`). The lowest any
 * of them sets is taken, whichever wins in Gemini CLI's merge and whether
 * or not it trusts the folder (a project's file counts only there): a cut
 * taken too low only leaves the files for a later call, one too high cut
 * your glob rule out of what the model sees while it was kept as given
 * (review rev41c F2). None raises it: Gemini CLI also cuts at four
 * characters a token of what the model's context has left. A value of 0 or
 * less turns Gemini CLI's cut off, and leaves ours at 40,000. A file that
 * cannot be read or parsed sets nothing; a FIFO or a device is never read.
 */
export async function geminiShellKept(cwd: string, where: HookWhere): Promise<number> {
  const own = geminiOwnSettings(where).map(async (path) => {
    const read = await readTextFile(path, MAX_SETTINGS_BYTES);
    return read.ok ? thresholdIn(parsed(read.text)) : undefined;
  });
  // The workspace's, unless cwd is that home (Gemini CLI reads it as yours): the repository's file, through the door.
  const workspace = async () => {
    if (resolve(cwd) === resolve(geminiHome(where))) return undefined;
    const reach = await projectReach({ start: cwd, home: where.home, trusted: true });
    const settings = await readGeminiSettings(cwd, reach, "its threshold not read");
    return "value" in settings ? thresholdIn(settings.value) : undefined;
  };
  const values = await Promise.all([...own, workspace()]);
  let kept = GEMINI_SHELL_KEPT_CHARS;
  for (const value of values) if (value !== undefined && value < kept) kept = value;
  return kept;
}

/** JSON with comments, or undefined. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(stripJsonComments(text));
  } catch {
    return undefined;
  }
}

/** The positive threshold parsed settings set, or undefined. */
function thresholdIn(settings: unknown): number | undefined {
  const value = (settings as { tools?: { truncateToolOutputThreshold?: unknown } } | null)?.tools
    ?.truncateToolOutputThreshold;
  // Gemini CLI compares a string as JavaScript does, as the number it reads as.
  const threshold = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof threshold === "number" && Number.isFinite(threshold) && threshold > 0
    ? Math.floor(threshold)
    : undefined;
}
