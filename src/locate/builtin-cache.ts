import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { normalizeText, parseFrontmatter, rememberParsed } from "../_frontmatter.js";
import { type ElementNamesOfText, elementNamesOf, rememberElementNames } from "../_prompt-text.js";
import { createEngine, type PrecompiledTemplate } from "../engine/index.js";
import { runningCompiled } from "./layers.js";

/**
 * Build-time work on the builtin prompts: their frontmatter parsed and their
 * bodies compiled, so that a CLI render on builtin templates loads neither the
 * YAML parser nor the Handlebars compiler. Entries are keyed by exact text: an
 * edited prompt simply misses the cache and is parsed and compiled as usual.
 *
 * The compiled bodies are code, kept in a module of their own
 * (`builtin-templates.cjs`, an array of Handlebars specs) that the JSON file's
 * entries name by index: the CLI bundle takes that module in, so its specs
 * come with the bundle's code cache instead of being parsed from text on
 * every start.
 */
const CACHE_FILE = "builtin-frontmatter.json";
const SPECS_FILE = "builtin-templates.cjs";

interface CacheEntry {
  text: string;
  data: Record<string, unknown>;
  body: string;
  bodyLine: number;
  /**
   * `spec`: the index of its spec in {@link SPECS_FILE}; `size`: its tags and
   * words, which a render charges to the prompt's totals without scanning it.
   */
  template?: { source: string; spec: number; helpers: string; size?: PrecompiledTemplate["size"] };
  /** The element names the body writes (`elementNamesOf`), which every render collects. */
  elements?: ElementNamesOfText;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === "string");

/** An entry's element names, when they have the shape written; else they are read from the body. */
function elementsOf(entry: CacheEntry): ElementNamesOfText | undefined {
  const e: Partial<Record<keyof ElementNamesOfText, unknown>> | undefined = entry.elements;
  return e && isStrings(e.names) && isStrings(e.literals) && typeof e.fromData === "boolean"
    ? { names: e.names, literals: e.literals, fromData: e.fromData }
    : undefined;
}

let templates: PrecompiledTemplate[] = [];

/** Where the cache lives: next to the compiled `src/` in `dist/`. Undefined when running from source. */
function cachePath(): string | undefined {
  return runningCompiled()
    ? fileURLToPath(new URL(`../../${CACHE_FILE}`, import.meta.url))
    : undefined;
}

let primed = false;

/** Loads the build-time cache once per process; a missing or unreadable cache only costs speed. */
export function primeBuiltinCache(): void {
  if (primed) return;
  primed = true;
  const path = cachePath();
  if (!path) return;
  let entries: CacheEntry[];
  try {
    entries = JSON.parse(readFileSync(path, "utf8")) as CacheEntry[];
  } catch {
    // No cache (not built yet) or a damaged one: everything is parsed normally.
    return;
  }
  if (!Array.isArray(entries)) return;
  rememberParsed(entries);
  rememberElementNames(
    entries.flatMap((e) => {
      const elements = elementsOf(e);
      return elements && typeof e.body === "string" ? [[e.body, elements] as const] : [];
    }),
  );
  const specs = loadSpecs();
  templates = entries.flatMap((e) => {
    const spec = e.template && specs ? specs[e.template.spec] : undefined;
    return e.template && typeof spec === "object" && spec !== null
      ? [{ source: e.template.source, helpers: e.template.helpers, spec, size: e.template.size }]
      : [];
  });
}

/** The specs module, or undefined when it is missing or damaged (then templates compile from source). */
function loadSpecs(): readonly unknown[] | undefined {
  try {
    // A literal path: the CLI bundle takes the module in (scripts/bundle-cli.mjs).
    const specs: unknown = createRequire(import.meta.url)("../../builtin-templates.cjs");
    return Array.isArray(specs) ? specs : undefined;
  } catch {
    return undefined;
  }
}

/** The builtin templates compiled at build time (empty when running from source). */
export function builtinTemplates(): readonly PrecompiledTemplate[] {
  primeBuiltinCache();
  return templates;
}

/** Writes the cache for every `.md` under `<promptsDir>/sections` and `/partials`. Run by `npm run build`. */
export function writeBuiltinCache(promptsDir: string, outFile: string): number {
  const entries: CacheEntry[] = [];
  const specs: string[] = [];
  const engine = createEngine();
  for (const sub of ["sections", "partials"]) {
    let names: string[];
    try {
      names = readdirSync(join(promptsDir, sub))
        .filter((n) => n.endsWith(".md"))
        .sort();
    } catch {
      // An absent folder (no builtin partials) has nothing to cache.
      continue;
    }
    for (const name of names) {
      const text = normalizeText(readFileSync(join(promptsDir, sub, name), "utf8"));
      const doc = parseFrontmatter(text);
      if (doc.ok && doc.diagnostics.length === 0) {
        const compiled = engine.check(doc.body) ? undefined : engine.precompile(doc.body);
        const template = compiled
          ? {
              source: compiled.source,
              spec: specs.push(String(compiled.spec)) - 1,
              helpers: compiled.helpers,
              ...(compiled.size ? { size: compiled.size } : {}),
            }
          : undefined;
        entries.push({
          text,
          data: doc.data,
          body: doc.body,
          bodyLine: doc.bodyLine,
          ...(template ? { template } : {}),
          elements: elementNamesOf(doc.body),
        });
      }
    }
  }
  // ASCII only (the rest as \u escapes): read from UTF-8 as one-byte text, which V8 decodes and parses fastest.
  const json = JSON.stringify(entries).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  writeFileSync(outFile, `${json}\n`);
  writeFileSync(
    join(dirname(outFile), SPECS_FILE),
    `"use strict";\n// Written by \`npm run build\` (src/locate/builtin-cache.ts): the builtin prompts' Handlebars specs.\nmodule.exports = [\n${specs.join(",\n")}\n];\n`,
  );
  return entries.length;
}
