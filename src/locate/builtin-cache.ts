import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { normalizeText, parseFrontmatter, rememberParsed } from "../_frontmatter.js";
import { createEngine, type PrecompiledTemplate } from "../engine/index.js";
import { runningCompiled } from "./layers.js";

/**
 * Build-time work on the builtin prompts: their frontmatter parsed and their
 * bodies compiled, so that a CLI render on builtin templates loads neither the
 * YAML parser nor the Handlebars compiler. Entries are keyed by exact text: an
 * edited prompt simply misses the cache and is parsed and compiled as usual.
 */
const CACHE_FILE = "builtin-frontmatter.json";

interface CacheEntry {
  text: string;
  data: Record<string, unknown>;
  body: string;
  bodyLine: number;
  template?: PrecompiledTemplate;
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
  templates = entries.flatMap((e) => (e.template ? [e.template] : []));
}

/** The builtin templates compiled at build time (empty when running from source). */
export function builtinTemplates(): readonly PrecompiledTemplate[] {
  primeBuiltinCache();
  return templates;
}

/** Writes the cache for every `.md` under `<promptsDir>/sections` and `/partials`. Run by `npm run build`. */
export function writeBuiltinCache(promptsDir: string, outFile: string): number {
  const entries: CacheEntry[] = [];
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
        const template = engine.check(doc.body) ? undefined : engine.precompile(doc.body);
        entries.push({
          text,
          data: doc.data,
          body: doc.body,
          bodyLine: doc.bodyLine,
          ...(template ? { template } : {}),
        });
      }
    }
  }
  writeFileSync(outFile, `${JSON.stringify(entries)}\n`);
  return entries.length;
}
