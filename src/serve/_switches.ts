import { DEFAULT_TOOLS } from "../gather/guidelines/index.js";
import { OPTIONS, type OptionName } from "../options/registry.js";
import type { SystemPromptOptions } from "../options.js";

/**
 * The render options the page may switch without a restart. Nothing else
 * (no folder, no file, no path) can come from a request: the rest of the
 * options are fixed by the command line.
 */
export interface Switches {
  /** Selected tools, in order. */
  tools: string[];
  /** Model name (to see per-model variants); null for none. */
  model: string | null;
  /** The workspace tree and the list of deeper AGENTS.md files. */
  tree: boolean;
  /** false: the project's SYSTEM/APPEND/sections/skills are skipped. */
  trusted: boolean;
}

/** The option of the registry behind each switch, in the order the page lists them. */
const SWITCHED = {
  tools: "tools",
  model: "model",
  tree: "workspaceTree",
  trusted: "projectTrusted",
} as const satisfies Record<keyof Switches, OptionName>;

const KEYS = Object.keys(SWITCHED) as (keyof Switches)[];

/** Most tools one request may select. */
export const MAX_TOOLS = 64;
/** Tool names as hosts spell them (`read`, `web_search`, `mcp.fetch`). */
const TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
/** Longest model name accepted. */
export const MAX_MODEL_LENGTH = 200;

/**
 * What a request may not ask for beyond the option's own check: a request is
 * read from a socket, so its lists and names are capped. The problem follows
 * the switch's name.
 */
const REQUEST_LIMITS: Partial<Record<keyof Switches, (value: unknown) => string | undefined>> = {
  tools: (tools) => {
    if (!Array.isArray(tools) || tools.length > MAX_TOOLS) {
      return `expected an array of at most ${MAX_TOOLS} tool names`;
    }
    if (tools.some((tool) => typeof tool !== "string" || !TOOL_NAME.test(tool))) {
      return "a name is 1-64 letters, digits, '_', '.', ':' or '-'";
    }
    return new Set(tools).size !== tools.length ? "a name is listed twice" : undefined;
  },
  model: (model) => {
    if (typeof model !== "string" || model.length === 0 || model.length > MAX_MODEL_LENGTH) {
      return `expected null or a name of 1-${MAX_MODEL_LENGTH} characters`;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    return /[\u0000-\u001f\u007f]/.test(model) ? "control characters are not allowed" : undefined;
  },
};

/** The switches the command line's options amount to. */
export function switchesOf(options: SystemPromptOptions): Switches {
  return {
    tools: [...(options.tools ?? DEFAULT_TOOLS)],
    model: options.model ?? null,
    tree: options.workspaceTree === true,
    trusted: options.projectTrusted !== false,
  };
}

/** `base` with the switches applied; every other option stays as given. */
export function applySwitches(base: SystemPromptOptions, switches: Switches): SystemPromptOptions {
  const options: Record<string, unknown> = { ...base };
  for (const key of KEYS) {
    // A switch set to null (no model) leaves its option out.
    if (switches[key] === null) delete options[SWITCHED[key]];
    else options[SWITCHED[key]] = switches[key];
  }
  return options as SystemPromptOptions;
}

/**
 * Checks a request body: an object with exactly the keys of {@link Switches},
 * each within the request's limits and passing its option's check in the
 * registry. Returns the switches, or what is wrong with the body.
 */
export function parseSwitches(
  body: unknown,
): { ok: true; value: Switches } | { ok: false; error: string } {
  const fail = (error: string) => ({ ok: false as const, error });
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return fail(`expected a JSON object with ${KEYS.slice(0, -1).join(", ")} and ${KEYS.at(-1)}`);
  }
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length > 0) return fail(`unknown field(s): ${extra.join(", ")}`);
  const missing = KEYS.filter((k) => !Object.hasOwn(record, k));
  if (missing.length > 0) return fail(`missing field(s): ${missing.join(", ")}`);
  for (const key of KEYS) {
    const value = record[key];
    // null: the option left out (only the model may be none).
    if (value === null && key === "model") continue;
    const expected = OPTIONS[SWITCHED[key]].check(value);
    const problem =
      REQUEST_LIMITS[key]?.(value) ?? (expected === undefined ? undefined : `expected ${expected}`);
    if (problem !== undefined) return fail(`${key}: ${problem}`);
  }
  return {
    ok: true,
    value: Object.fromEntries(KEYS.map((k) => [k, record[k]])) as unknown as Switches,
  };
}
