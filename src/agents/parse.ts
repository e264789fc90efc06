import type * as Yaml from "yaml";
import { didYouMean } from "../_suggest.js";
import { holdsHidden } from "../_text.js";
import { parseYaml, shownKey, YAML_TEXT_CAPS } from "../_yaml.js";
import { MAX_KEY_PROBLEMS } from "../config/index.js";
import type { Diagnostic } from "../types.js";
import type { ExportSpec, PathQuote, ToolSet } from "./types.js";

/** The keys a preset file may set; each later layer's file replaces the keys it sets. */
export interface PresetFields {
  description?: string;
  agentName?: string;
  tools?: Record<string, string>;
  contextFiles?: string[][];
  imports?: boolean;
  ruleSources?: string[];
  nestedContextFiles?: string[];
  toolSets?: ToolSet[];
  agentSends?: string[];
  verifiedWith?: string;
  export?: ExportSpec | null;
}

/** Preset names, as section names: they become file and folder names. */
export const PRESET_NAME = /^[a-z][a-z0-9_-]*$/;

/** A tool name as `prompts/tools.md` accepts one. */
const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A plain file name for the export folder: no folder part, no leading dot. */
const EXPORT_FILE = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/** Caps: a preset is a few lines; a bigger one is not a preset. */
export const MAX_PRESET_TOOLS = 64;
const MAX_TEXT = 500;
const MAX_LIST = 32;
const ONE_LINE = `must be one line of text without control characters, at most ${MAX_TEXT} characters`;

const TOP_KEYS = [
  "description",
  "agentName",
  "verifiedWith",
  "tools",
  "toolSets",
  "agentSends",
  "loadsItself",
  "export",
];
const LOADS_KEYS = ["contextFiles", "ruleSources", "imports", "nestedContextFiles"];
const TOOL_SET_KEYS = ["models", "modes", "tools"];
/** Most alternative tool sets one preset may have. */
const MAX_TOOL_SETS = 16;
const EXPORT_KEYS = ["file", "where", "setting", "quote", "substitutes"];
const QUOTES: readonly PathQuote[] = ["shell", "env", "toml", "json", "opencode"];

/**
 * Parses one preset file's text. Pure: no file system. Every problem is a
 * diagnostic at its line; a bad key is left out (the lower layer's value, or
 * the default, stays), the rest of the file still counts. A file that is not
 * YAML, or not a mapping, sets nothing.
 */
export function parsePreset(
  text: string,
  path: string,
): { fields: PresetFields; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const parsed = parseYaml(text, { maxChars: YAML_TEXT_CAPS.preset });
  if (!parsed.ok) {
    const { message, line } = parsed.problem;
    diagnostics.push({
      level: "error",
      code: "preset-invalid",
      message: `${message}; the preset file is ignored`,
      path,
      line,
    });
    return { fields: {}, diagnostics };
  }
  const { yaml, doc, lines } = parsed;
  const lineOf = (node: unknown): { line?: number } => {
    const offset = yaml.isNode(node) ? node.range?.[0] : undefined;
    return offset === undefined ? {} : { line: lines.linePos(offset).line };
  };
  // As for sysprompt.yaml: a file of thousands of unknown keys is a few lines of report, not thousands.
  let unshown = 0;
  const problem = (
    message: string | (() => string),
    node?: unknown,
    level: Diagnostic["level"] = "error",
  ) => {
    if (diagnostics.length >= MAX_KEY_PROBLEMS) unshown++;
    else {
      const text = typeof message === "string" ? message : message();
      diagnostics.push({ level, code: "preset-invalid", message: text, path, ...lineOf(node) });
    }
  };
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const line = first ? lines.linePos(first.pos[0]).line : undefined;
    diagnostics.push({
      level: "error",
      code: "preset-invalid",
      message: `not valid YAML (${(first?.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "")}); the preset file is ignored`,
      path,
      ...(line !== undefined ? { line } : {}),
    });
    return { fields: {}, diagnostics };
  }
  const root = doc.contents;
  if (root === null || (yaml.isScalar(root) && root.value === null))
    return { fields: {}, diagnostics };
  if (!yaml.isMap(root)) {
    problem("a preset must be a mapping such as `agentName: Codex`; the file is ignored", root);
    return { fields: {}, diagnostics };
  }
  const fields: PresetFields = {};
  for (const pair of root.items) {
    const node = pair.value;
    if (!yaml.isScalar(pair.key)) {
      problem(
        () =>
          `a key must be a plain word, got ${shownKey(yaml, pair.key)}; the keys are ${TOP_KEYS.join(", ")}`,
        pair.key,
        "warning",
      );
      continue;
    }
    const key = String(pair.key.value);
    if (!TOP_KEYS.includes(key)) {
      problem(() => unknownKey(key, TOP_KEYS), pair.key, "warning");
      continue;
    }
    const value = toValue(yaml, doc, node);
    if (value === ALIAS_ERROR) {
      problem(`${key}: uses more than ${MAX_ALIAS_COUNT} aliases or an unknown one`, node);
      continue;
    }
    if (key === "description" || key === "agentName" || key === "verifiedWith") {
      const s = oneLineText(value);
      if (s === undefined) problem(`${key}: ${ONE_LINE}`, node);
      else fields[key] = s;
    } else if (key === "tools") {
      const tools = toolTable(value);
      if (typeof tools === "string") problem(`tools: ${tools}`, node);
      else fields.tools = tools;
    } else if (key === "toolSets") {
      const sets = toolSets(value);
      if (typeof sets === "string") problem(`toolSets: ${sets}`, node);
      else fields.toolSets = sets;
    } else if (key === "agentSends") {
      const list = nameList(value);
      if (list === undefined || !list.every((n) => SECTION_NAME.test(n))) {
        problem("agentSends: must be a list of section names such as [date, cwd]", node);
      } else fields.agentSends = list;
    } else if (key === "loadsItself") {
      if (!isRecord(value)) {
        problem(
          "loadsItself: must be a mapping with contextFiles, ruleSources, nestedContextFiles lists and/or imports",
          node,
        );
        continue;
      }
      for (const [k, v] of Object.entries(value)) {
        if (!LOADS_KEYS.includes(k)) {
          problem(`loadsItself: ${unknownKey(k, LOADS_KEYS)}`, node, "warning");
          continue;
        }
        if (k === "imports") {
          if (typeof v === "boolean") fields.imports = v;
          else problem("loadsItself.imports: must be true or false", node);
          continue;
        }
        if (k === "contextFiles") {
          const entries = contextFileEntries(v);
          if (entries === undefined) {
            problem(
              "loadsItself.contextFiles: must be a list whose entries are file names (CLAUDE.md, .claude/CLAUDE.md) or lists of them",
              node,
            );
          } else fields.contextFiles = entries;
          continue;
        }
        const list = nameList(v);
        if (list === undefined) problem(`loadsItself.${k}: must be a list of names`, node);
        else fields[k as "ruleSources" | "nestedContextFiles"] = list;
      }
    } else if (key === "export") {
      const spec = exportSpec(value);
      if (typeof spec === "string") problem(`export: ${spec}`, node);
      else fields.export = spec;
    }
  }
  if (unshown > 0) {
    const message = `${unshown} more problems in this file not shown`;
    diagnostics.push({ level: "warning", code: "preset-problems-capped", message, path });
  }
  return { fields, diagnostics };
}

/** Most aliases one value may expand (an alias bomb is a few lines of YAML). */
const MAX_ALIAS_COUNT = 10;

const ALIAS_ERROR = Symbol("alias error");

function toValue(yaml: typeof Yaml, doc: Yaml.Document, node: unknown): unknown {
  if (!yaml.isNode(node)) return node;
  try {
    return node.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // yaml throws for too many aliases and for an alias to a missing anchor: both are the file's.
    if (error instanceof Error) return ALIAS_ERROR;
    throw error;
  }
}

function unknownKey(key: string, known: readonly string[]): string {
  const hint = didYouMean(key, known) ?? `the keys are ${known.join(", ")}`;
  return `unknown key ${JSON.stringify(key.slice(0, 60))}, ignored; ${hint}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Text without line breaks or other control characters, trimmed, capped; undefined when it is not. */
function oneLineText(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const s = v.trim();
  if (s === "" || s.length > MAX_TEXT || holdsHidden(s)) {
    return undefined;
  }
  return s;
}

function toolTable(v: unknown): Record<string, string> | string {
  if (v === null) return {};
  if (!isRecord(v)) return "must be a mapping of tool name to its one-line description";
  const entries = Object.entries(v);
  if (entries.length > MAX_PRESET_TOOLS) return `at most ${MAX_PRESET_TOOLS} tools`;
  const out: Record<string, string> = {};
  for (const [name, description] of entries) {
    if (!TOOL_NAME.test(name))
      return `${JSON.stringify(name.slice(0, 60))} is not a tool name (letters, digits, _ . : -)`;
    const d = oneLineText(description);
    if (d === undefined) return `the description of ${name}: ${ONE_LINE}`;
    out[name] = d;
  }
  return out;
}

/** A section name, as in prompts/sections. */
const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;

/**
 * A context file an agent loads, relative to the folder: a name, or one folder and a name
 * (`.claude/CLAUDE.md`); never `..`, never absolute.
 */
const CONTEXT_FILE = /^(?:[A-Za-z0-9_.-]{1,64}\/)?[A-Za-z0-9_.-]{1,64}$/;

function contextFileEntries(v: unknown): string[][] | undefined {
  if (!Array.isArray(v) || v.length > MAX_LIST) return undefined;
  const out: string[][] = [];
  for (const entry of v) {
    const names = Array.isArray(entry) ? entry : [entry];
    if (names.length === 0 || names.length > MAX_LIST) return undefined;
    for (const n of names) {
      if (typeof n !== "string" || !CONTEXT_FILE.test(n) || n.split("/").some(dotsOnly)) {
        return undefined;
      }
    }
    out.push(names as string[]);
  }
  return out;
}

const dotsOnly = (part: string) => /^\.+$/.test(part);

function toolSets(v: unknown): ToolSet[] | string {
  if (!Array.isArray(v)) return "must be a list of { models or modes, tools }";
  if (v.length > MAX_TOOL_SETS) return `at most ${MAX_TOOL_SETS} tool sets`;
  const out: ToolSet[] = [];
  for (const [i, entry] of v.entries()) {
    if (!isRecord(entry))
      return `entry ${i + 1}: must be a mapping with models or modes, and tools`;
    for (const k of Object.keys(entry)) {
      if (!TOOL_SET_KEYS.includes(k)) return `entry ${i + 1}: ${unknownKey(k, TOOL_SET_KEYS)}`;
    }
    const set: ToolSet = { tools: {} };
    for (const k of ["models", "modes"] as const) {
      if (entry[k] === undefined) continue;
      const list = globList(entry[k]);
      if (list === undefined)
        return `entry ${i + 1}: ${k} must be a non-empty list of names or globs`;
      set[k] = list;
    }
    if (!set.models && !set.modes) return `entry ${i + 1}: needs models or modes (or both)`;
    const tools = toolTable(entry.tools);
    if (typeof tools === "string") return `entry ${i + 1}: tools: ${tools}`;
    if (Object.keys(tools).length === 0)
      return `entry ${i + 1}: tools: must name at least one tool`;
    set.tools = tools;
    out.push(set);
  }
  return out;
}

function globList(v: unknown): string[] | undefined {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_LIST) return undefined;
  const out: string[] = [];
  for (const x of v) {
    const s = oneLineText(x);
    if (s === undefined || s.length > 100) return undefined;
    out.push(s);
  }
  return out;
}

function nameList(v: unknown): string[] | undefined {
  if (!Array.isArray(v) || v.length > MAX_LIST) return undefined;
  const out: string[] = [];
  for (const x of v) {
    // A name, never a path: it is compared with file and format names only.
    if (typeof x !== "string" || !/^[A-Za-z0-9_.-]{1,64}$/.test(x) || x.startsWith(".")) {
      return undefined;
    }
    out.push(x);
  }
  return out;
}

function exportSpec(v: unknown): ExportSpec | null | string {
  if (v === null || v === false) return null;
  if (!isRecord(v))
    return "must be a mapping with file, where, setting and quote (or null: no export)";
  for (const k of Object.keys(v)) {
    if (!EXPORT_KEYS.includes(k)) return unknownKey(k, EXPORT_KEYS);
  }
  const file = v.file;
  if (typeof file !== "string" || !EXPORT_FILE.test(file)) {
    return "file: must be a plain file name such as system-prompt.md (no folders)";
  }
  const where = oneLineText(v.where);
  if (where === undefined) return `where: ${ONE_LINE} (where the setting goes)`;
  const setting = oneLineText(v.setting);
  if (setting === undefined || !setting.includes("{path}")) {
    return `setting: ${ONE_LINE}, with {path} where the file's path goes`;
  }
  const quote = v.quote ?? "shell";
  if (typeof quote !== "string" || !QUOTES.includes(quote as PathQuote)) {
    return `quote: must be one of ${QUOTES.join(", ")}`;
  }
  const substitutes = v.substitutes ?? false;
  if (typeof substitutes !== "boolean") return "substitutes: must be true or false";
  return {
    file,
    where,
    setting,
    quote: quote as PathQuote,
    ...(substitutes ? { substitutes } : {}),
  };
}
