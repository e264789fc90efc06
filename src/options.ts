import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { EnvironmentEntry } from "./data.js";
import { DEFAULT_DEADLINE_MS } from "./gather/deadline.js";
import { DEFAULT_TOOLS } from "./gather/tools.js";
import { readTextOrPath } from "./locate/custom.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveAgentDir } from "./locate/layers.js";
import type { ExtraSection } from "./sections/render.js";
import { SECTION_NAME } from "./sections/types.js";
import { SyspromptError } from "./types.js";

/** Options of {@link renderSystemPrompt}. Every field is optional; defaults are documented per field. */
export interface SystemPromptOptions {
  /** Working directory. Default: `process.cwd()`. */
  cwd?: string;
  /** User layer folder. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
  /** Name of the project layer folder under cwd. Default: `".pi"`. */
  projectDir?: string;
  /** When false, project SYSTEM/APPEND/sections/skills are skipped (context files still load). Default: true. */
  projectTrusted?: boolean;
  /** The agent's name in the preamble. Default: `"a coding agent"`. */
  agentName?: string;
  /** Model name, stated in the environment section. Default: none. */
  model?: string;
  /** Selected tool names, in order. Default: read, bash, edit, write. */
  tools?: readonly string[];
  /** One-line tool descriptions that add to or replace the builtin ones; `""` hides a tool. */
  toolSnippets?: Readonly<Record<string, string>>;
  /** Guidelines per tool, added to the rules when the tool is selected. */
  toolGuidelines?: Readonly<Record<string, readonly string[]>>;
  /** The caller's own rules, added after tool guidelines and before the general rules. */
  promptGuidelines?: readonly string[];
  /** Custom base prompt: text, or a path to a text file. Beats SYSTEM.md files. */
  systemPrompt?: string;
  /** Appended after APPEND_SYSTEM.md, each text or a path to a text file. */
  appendSystemPrompt?: string | readonly string[];
  /** Named sections from code, in insertion order: replace a section's body or add one at the end. */
  sections?: Readonly<Record<string, string>>;
  /** Replaces environment detection. */
  environment?: readonly EnvironmentEntry[];
  /** Skip AGENTS.md / CLAUDE.md discovery. Default: false. */
  noContextFiles?: boolean;
  /** Documentation pointers; the docs section renders only when given. */
  docs?: string;
  /** Extra workspace roots. */
  roots?: readonly string[];
  /** Skill folders or files searched before the default ones. */
  skillPaths?: readonly string[];
  /** The clock: a Date, an ISO string or epoch milliseconds. Default: now. */
  now?: Date | string | number;
  /** Environment variables. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home folder. Default: `os.homedir()`. */
  home?: string;
  /** Platform and architecture for environment detection. Default: `process.platform` / `process.arch`. */
  machine?: { platform: string; arch: string };
  /** Deadline for the gathering stage in ms. Default: 5000. */
  deadlineMs?: number;
  /** Builtin prompts folder (`sections/`, `partials/`, `tools.md`, `rules.md`). Default: the package's own. */
  builtinDir?: string;
}

/**
 * {@link SystemPromptOptions} checked and with every default applied: what
 * `preparePrompt` works from. Explicit text-or-path options are already read.
 */
export interface NormalizedOptions {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  agentDir: string;
  /** The project layer folder's name (`.pi`) and its absolute path. */
  projectDirName: string;
  projectDir: string;
  builtinDir: string;
  trusted: boolean;
  tools: string[];
  now: Date;
  deadlineMs: number;
  extraSections: ExtraSection[];
  /** `systemPrompt`, read: its text and, when it named a file, the file. */
  systemPrompt: { text: string; path?: string } | null;
  /** Every `appendSystemPrompt` value, read. */
  appendSystemPrompt: string[];
}

/**
 * Checks the caller's options and applies the defaults. A bad explicit option
 * is the caller's mistake: it throws {@link SyspromptError} with the fix in
 * the message, before any gathering starts.
 */
export async function normalizeOptions(
  options: SystemPromptOptions = {},
): Promise<NormalizedOptions> {
  const env = options.env ?? process.env;
  const home = options.home ?? homedir();
  const cwd = resolve(options.cwd ?? process.cwd());
  const projectDirName = options.projectDir ?? DEFAULT_PROJECT_DIR;
  const [systemPrompt, appendSystemPrompt] = await Promise.all([
    options.systemPrompt === undefined
      ? null
      : readTextOrPath(options.systemPrompt, cwd, "--system-prompt", home),
    Promise.all(
      toList(options.appendSystemPrompt).map(
        async (v) => (await readTextOrPath(v, cwd, "--append-system-prompt", home)).text,
      ),
    ),
  ]);
  return {
    cwd,
    home,
    env,
    agentDir: resolveAgentDir({ agentDir: options.agentDir, env, home, cwd }),
    projectDirName,
    projectDir: join(cwd, projectDirName),
    builtinDir: options.builtinDir ?? builtinPromptsDir(),
    trusted: options.projectTrusted !== false,
    tools: [...(options.tools ?? DEFAULT_TOOLS)],
    now: parseNow(options.now),
    deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    extraSections: validateSections(options.sections),
    systemPrompt,
    appendSystemPrompt,
  };
}

function toList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : [...value];
}

/**
 * ISO 8601 extended format: a date, or a date and time (`T` or a space
 * between, as RFC 3339 allows) with optional seconds, fraction and zone.
 * Linear: no nested or overlapping quantifiers.
 */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The clock option as a Date: a Date, epoch milliseconds, or an ISO 8601
 * string. A string without an offset is UTC, so the date never depends on the
 * machine's time zone; anything JavaScript would merely guess at ("Jan 1
 * 2026", "2026/01/01") or roll over (2026-02-30) is refused. Shared by the
 * API and the CLI's `--now`; `what` names the option in the message.
 *
 * @throws SyspromptError when the value is not a valid time.
 */
export function parseNow(now: Date | string | number | undefined, what = "now"): Date {
  if (now === undefined) return new Date();
  if (typeof now === "string") {
    const time = parseIsoTime(now);
    if (time === undefined) {
      throw new SyspromptError(
        "bad-option",
        `${what}: "${now}" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)`,
      );
    }
    return new Date(time);
  }
  const date = now instanceof Date ? new Date(now.getTime()) : new Date(now);
  if ((typeof now !== "number" && !(now instanceof Date)) || Number.isNaN(date.getTime())) {
    throw new SyspromptError(
      "bad-option",
      `${what}: ${describe(now)} is not a time; pass a Date, epoch milliseconds or an ISO 8601 string`,
    );
  }
  return date;
}

/** Epoch milliseconds of an ISO 8601 string, or undefined when it is not one or names no real time. */
function parseIsoTime(text: string): number | undefined {
  const m = ISO_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(m[i] ?? 0),
  ) as [number, number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-30 over to March; a clock option that does so is a typo.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() + 1 !== month ||
    check.getUTCDate() !== day
  ) {
    return undefined;
  }
  const zone = m[8];
  if (zone === undefined || zone === "Z") return utc;
  const offsetHours = Number(zone.slice(1, 3));
  const offsetMinutes = Number(zone.slice(-2));
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const sign = zone.startsWith("-") ? -1 : 1;
  return utc - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/** A value for a message: strings quoted, everything else as JavaScript shows it. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value instanceof Date) return String(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : String(value);
}

function validateSections(sections: SystemPromptOptions["sections"]): ExtraSection[] {
  const out: ExtraSection[] = [];
  for (const [name, text] of Object.entries(sections ?? {})) {
    if (!SECTION_NAME.test(name) || name === "preamble") {
      throw new SyspromptError(
        "bad-option",
        `sections: "${name}" is not a valid section name; use ${SECTION_NAME.source}, not "preamble"`,
      );
    }
    if (typeof text !== "string") {
      throw new SyspromptError("bad-option", `sections: the value of "${name}" must be a string`);
    }
    out.push({ name, text });
  }
  return out;
}
