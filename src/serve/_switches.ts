import { DEFAULT_TOOLS } from "../gather/guidelines/index.js";
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

/** Most tools one request may select. */
export const MAX_TOOLS = 64;
/** Tool names as hosts spell them (`read`, `web_search`, `mcp.fetch`). */
const TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
/** Longest model name accepted. */
export const MAX_MODEL_LENGTH = 200;

const KEYS: readonly (keyof Switches)[] = ["tools", "model", "tree", "trusted"];

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
  const options: SystemPromptOptions = {
    ...base,
    tools: switches.tools,
    workspaceTree: switches.tree,
    projectTrusted: switches.trusted,
  };
  if (switches.model === null) delete options.model;
  else options.model = switches.model;
  return options;
}

/**
 * Checks a request body: an object with exactly the keys of {@link Switches},
 * each of its type. Returns the switches, or what is wrong with the body.
 */
export function parseSwitches(
  body: unknown,
): { ok: true; value: Switches } | { ok: false; error: string } {
  const fail = (error: string) => ({ ok: false as const, error });
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return fail("expected a JSON object with tools, model, tree and trusted");
  }
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length > 0) return fail(`unknown field(s): ${extra.join(", ")}`);
  const missing = KEYS.filter((k) => !Object.hasOwn(record, k));
  if (missing.length > 0) return fail(`missing field(s): ${missing.join(", ")}`);
  const { tools, model, tree, trusted } = record;
  if (!Array.isArray(tools) || tools.length > MAX_TOOLS) {
    return fail(`tools: expected an array of at most ${MAX_TOOLS} tool names`);
  }
  for (const tool of tools) {
    if (typeof tool !== "string" || !TOOL_NAME.test(tool)) {
      return fail("tools: a name is 1-64 letters, digits, '_', '.', ':' or '-'");
    }
  }
  if (new Set(tools).size !== tools.length) return fail("tools: a name is listed twice");
  if (model !== null) {
    if (typeof model !== "string" || model.length === 0 || model.length > MAX_MODEL_LENGTH) {
      return fail(`model: expected null or a name of 1-${MAX_MODEL_LENGTH} characters`);
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(model))
      return fail("model: control characters are not allowed");
  }
  if (typeof tree !== "boolean") return fail("tree: expected true or false");
  if (typeof trusted !== "boolean") return fail("trusted: expected true or false");
  return { ok: true, value: { tools: tools as string[], model, tree, trusted } };
}
