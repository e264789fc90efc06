import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { readTextFile } from "../_fs.js";
import { realWorkingFolder } from "../gather/roots.js";
import {
  GEMINI_SETTINGS,
  MAX_GEMINI_SETTINGS_BYTES,
  parseGeminiSettings,
  readGeminiSettings,
} from "../gather/rules/gemini-settings.js";
import { NO_DEADLINE, projectReach } from "../repo-files/index.js";
import type { HookWhere } from "./context.js";
import { GEMINI_SHELL_KEPT_CHARS } from "./reply.js";

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
 * How Gemini CLI 0.61 cuts a tool's result, the hook's text appended, as
 * its settings say (yours and the machine's, {@link geminiOwnSettings}, and
 * the workspace's `<cwd>/.gemini/settings.json`, read through the door).
 */
export interface GeminiCut {
  /**
   * Past how many characters it cuts a shell command's result:
   * `tools.truncateToolOutputThreshold`, 40,000 unless a file sets it lower;
   * 0 when a value or a file cannot be judged (`unjudged`): the smallest cut.
   */
  kept: number;
  /** Why a setting or a file could not be judged, when one could not. */
  unjudged?: string;
  /**
   * Whether it distills every tool's result but `read_file`'s and
   * `read_many_files`'s past {@link GEMINI_DISTILL_CHARS}: `experimental.contextManagement`
   * (or one of its profiles) is set.
   */
  distills: boolean;
}

/**
 * The settings that turn Gemini CLI's context management on: any of them
 * true in the merged settings (`experimental`; loadCliConfig's profile).
 */
const DISTILLING = [
  "contextManagement",
  "generalistProfile",
  "powerUserProfile",
  "stressTestProfile",
];

/**
 * How Gemini CLI cuts a tool's result ({@link GeminiCut}). The lowest
 * threshold any file sets is taken, whichever wins in Gemini CLI's merge and
 * whether or not it trusts the folder (a project's file counts only there):
 * a cut taken too low only leaves the files for a later call, one too high
 * cut your glob rule out of what the model sees while it was kept as given
 * (reviews rev41c F2, rev42b F2). None raises it: Gemini CLI also cuts at four
 * characters a token of what the model's context has left. A value is read
 * as Gemini CLI reads it: it coerces it as JavaScript does (`Math.min` with
 * the context left: `"2000"` and `[2000]` are 2,000, `true` is 1); a value
 * of 0 or less turns its cut off and leaves ours at 40,000. What cannot be
 * judged is taken as the smallest cut (`kept` 0): a value that is not a
 * number as JavaScript coerces it (`"abc"`, an object), one that names an
 * environment variable (Gemini CLI expands `$VAR`, `${VAR}` and
 * `${VAR:-default}` in every string with its own environment, which the
 * hook's is not: Gemini CLI redacts some variables and runs the hook through
 * a shell), and a file that exists but cannot be read or parsed (a FIFO or
 * a device is never opened; past 1 MiB, or nested or numerous past
 * `GEMINI_SETTINGS_LIMITS`, it is left unread; through the door,
 * a link out of the project). Context management is taken as on whenever a
 * file sets one of its settings to anything JavaScript reads as true (the
 * string `"false"` among them: Gemini CLI keeps a value that fails its
 * validation as it is).
 */
export async function geminiCut(cwd: string, where: HookWhere): Promise<GeminiCut> {
  const own = geminiOwnSettings(where).map(async (path): Promise<Read> => {
    const read = await readTextFile(path, MAX_GEMINI_SETTINGS_BYTES);
    if (read.ok) return parsed(path, read.text);
    // Gemini CLI reads a file that exists (existsSync: a link to nothing does not), whatever it is.
    return read.reason === "missing" || !existsSync(path)
      ? {}
      : { unjudged: `${path} cannot be read (${read.reason})` };
  });
  // The workspace's, unless cwd is that home (Gemini CLI reads it as yours): the repository's file, through the door.
  const workspace = async (): Promise<Read> => {
    if (resolve(cwd) === resolve(geminiHome(where))) return {};
    // Found from cwd's real folder, as every other look of the hook's (rev57a F3).
    const real = await realWorkingFolder(resolve(cwd), { home: where.home });
    // The hook's one look-up of a trusted reach (no private checks): no deadline of its own.
    const reach = await projectReach({
      start: real,
      home: where.home,
      trusted: true,
      signal: NO_DEADLINE,
    });
    const settings = await readGeminiSettings(real, reach, "its threshold not read");
    if ("value" in settings) {
      return settings.cut
        ? { unjudged: `${settings.path} is longer than ${MAX_GEMINI_SETTINGS_BYTES} bytes` }
        : { value: settings.value };
    }
    const [problem] = settings.diagnostics;
    return problem === undefined
      ? {}
      : { unjudged: `${problem.path ?? GEMINI_SETTINGS} cannot be read (${problem.message})` };
  };
  const reads = await Promise.all([...own, workspace()]);
  let kept = GEMINI_SHELL_KEPT_CHARS;
  let unjudged: string | undefined;
  let distills = false;
  for (const read of reads) {
    // A file not judged may turn context management on as well.
    if (read.unjudged !== undefined) {
      unjudged ??= read.unjudged;
      distills = true;
      continue;
    }
    const threshold = thresholdIn(read.value);
    if (typeof threshold === "string")
      unjudged ??= `tools.truncateToolOutputThreshold ${threshold}`;
    else if (threshold !== undefined && threshold < kept) kept = threshold;
    if (distillsIn(read.value)) distills = true;
  }
  return unjudged === undefined ? { kept, distills } : { kept: 0, unjudged, distills };
}

/**
 * Past how many characters Gemini CLI cuts a shell command's result
 * ({@link geminiCut}'s `kept`: 0 when a setting cannot be judged).
 */
export async function geminiShellKept(cwd: string, where: HookWhere): Promise<number> {
  return (await geminiCut(cwd, where)).kept;
}

/** One settings file: its parsed value, nothing (no file), or why it cannot be judged. */
interface Read {
  value?: unknown;
  unjudged?: string;
}

/** JSON with comments, or why not (the settings files' one parse and shape check). */
function parsed(path: string, text: string): Read {
  const parse = parseGeminiSettings(text);
  return "value" in parse ? parse : { unjudged: `${path} is ${parse.problem}` };
}

/**
 * What Gemini CLI expands in a settings string before it reads it
 * (resolveEnvVarsInString: `$NAME`, `${NAME}`, `${NAME:-default}`). Any `${` counts, closed
 * or not: "cannot be judged" is the safe answer, and `\{[^}]+\}` scanned to the end of the text
 * from every unclosed `${` (1 MiB of them held the hook for minutes; rev50b F3).
 */
const ENV_REFERENCE = /\$[\w{]/;

/**
 * The longest threshold string judged: a number is a few characters, and a longer string
 * (white space around one, say) is "cannot be judged" without being read.
 */
const MAX_THRESHOLD_CHARS = 64;

/** Whether a value holds a string Gemini CLI would expand with its environment. */
function namesEnv(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return ENV_REFERENCE.test(value);
  if (Array.isArray(value)) return depth > 64 || value.some((v) => namesEnv(v, depth + 1));
  return false;
}

/**
 * The positive threshold parsed settings set (as JavaScript coerces it:
 * Gemini CLI takes `Math.min` of it), undefined when none is set or it turns
 * the cut off, or why it cannot be judged.
 */
function thresholdIn(settings: unknown): number | string | undefined {
  const value = (settings as { tools?: { truncateToolOutputThreshold?: unknown } } | null)?.tools
    ?.truncateToolOutputThreshold;
  // Gemini CLI's Config takes the default for a value that is not set, or null.
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && value.length > MAX_THRESHOLD_CHARS)
    return `is a string of more than ${MAX_THRESHOLD_CHARS} characters, not a number`;
  if (namesEnv(value))
    return "names an environment variable, which Gemini CLI expands with its own";
  let threshold: number;
  try {
    threshold = Number(value);
  } catch {
    return "is not a number";
  }
  if (Number.isNaN(threshold)) return "is not a number";
  return threshold > 0 ? Math.floor(Math.min(threshold, GEMINI_SHELL_KEPT_CHARS)) : undefined;
}

/** Whether parsed settings turn Gemini CLI's context management on, read on the safe side. */
function distillsIn(settings: unknown): boolean {
  const experimental = (settings as { experimental?: unknown } | null)?.experimental;
  if (typeof experimental !== "object" || experimental === null) return false;
  return DISTILLING.some((key) => Boolean((experimental as Record<string, unknown>)[key]));
}
