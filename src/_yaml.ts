import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import { maxOf } from "./_arrays.js";
import { describe } from "./_text.js";

/**
 * What a YAML text from a repository may hold: frontmatter, `sysprompt.yaml`,
 * presets, scenarios. Real files are far below each limit. Past one, the
 * text is not parsed: the parser's time and memory grow much faster than the
 * text with nesting (a 1.6 KB line of `? ` keys ran for minutes, 4 KB of them
 * exhausted its memory), so they are checked first, on the lexer's tokens.
 */
export const YAML_LIMITS = {
  /** Levels of lists, mappings and brackets, counted as the lexer sees them (indentation, `- ? :` on a line, `[ {`). */
  maxDepth: 16,
  /** Explicit keys (`? `): a key that is itself a list or mapping costs the parser most. */
  maxExplicitKeys: 32,
  /** Anchors (`&name`) and aliases (`*name`): a few lines of them expand to millions of values. */
  maxAnchors: 64,
  maxAliases: 100,
  /**
   * Tags (`!name`): more than one on a node is an error, and a line of them
   * gave yaml an error each (10,000 in a 31 KB frontmatter: 4 s to parse).
   */
  maxTags: 64,
} as const;

/**
 * The most a YAML text from a repository may be, by what holds it: bytes of a
 * file, characters of a frontmatter block. Past its cap a text is refused
 * unparsed. yaml's parse is synchronous and grows with the text: a fresh CLI
 * process parsed a file of short keys in 0.11 s at 4 KiB, 0.15 s at 8, 0.2-0.3
 * s at 16, 0.6-1.2 s at 64 and 3.8 s at 1 MiB (loaded 2-core machine), and
 * config and presets are parsed on every render. Each cap is several times the
 * largest real file.
 */
export const YAML_TEXT_CAPS = {
  /** `sysprompt.yaml`: a real one is a dozen lines. */
  config: 8 * 1024,
  /** `agents/<name>.yaml`: the builtin presets are 0.7-3.7 KB. */
  preset: 16 * 1024,
  /** `*.scenario.yaml`: this repository's are under 0.5 KB. */
  scenario: 16 * 1024,
  /** A frontmatter block, in characters. */
  frontmatter: 32 * 1024,
} as const;

/** The cap of a text whose reader names none: the table's largest. */
const DEFAULT_MAX_CHARS = maxOf(Object.values(YAML_TEXT_CAPS));

let yamlModule: typeof Yaml | undefined;

/** yaml costs ~30 ms to load, more than the rest of a CLI render: required on first use. */
export function loadYaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return yamlModule;
}

/** Why a text is not parsed, at the place it crossed a limit (1-based). */
export interface YamlLimitProblem {
  message: string;
  line: number;
  column: number;
}

/** Lexer tokens that stand for no characters of the text. */
const CONTROL_TOKENS = new Set(["\u0002", "\u0018", "\u001f"]);

/** Tokens that open a level of block nesting when they stand on a line outside brackets. */
const BLOCK_INDICATORS = new Set(["seq-item-ind", "explicit-key-ind", "map-value-ind"]);

/** Tokens that are not a line's content: its indentation is taken at the first other one. */
const NOT_CONTENT = new Set(["space", "newline", "comment", "doc-mode", "byte-order-mark"]);

/**
 * The first limit of {@link YAML_LIMITS} that `text` crosses, or undefined.
 * Linear: one pass of yaml's lexer (the parser's own first stage, so a
 * quoted or block scalar hides nothing from it), no parse. Nesting is an
 * upper bound of the parser's: the indentation levels open at the line, the
 * block indicators on it, and the brackets open.
 */
export function yamlLimitProblem(
  text: string,
  maxChars: number = DEFAULT_MAX_CHARS,
): YamlLimitProblem | undefined {
  if (text.length > maxChars) {
    return {
      message: `it is ${text.length} characters, over the limit of ${maxChars}`,
      line: 1,
      column: 1,
    };
  }
  const yaml = loadYaml();
  const indents: number[] = [];
  let offset = 0;
  let lineStart = 0;
  let lineOpen = true;
  let onLine = 0;
  let flow = 0;
  const counts = { keys: 0, anchors: 0, aliases: 0, tags: 0 };
  const over = (at: number, message: string) => ({ ...position(text, at), message });
  for (const token of new yaml.Lexer().lex(text)) {
    const type = yaml.CST.tokenType(token) ?? undefined;
    const start = offset;
    if (!CONTROL_TOKENS.has(token)) offset += token.length;
    if (type === "newline") {
      lineStart = offset;
      lineOpen = true;
      onLine = 0;
      continue;
    }
    if (lineOpen && flow === 0 && type !== undefined && !NOT_CONTENT.has(type)) {
      lineOpen = false;
      const column = start - lineStart;
      while (indents.length > 0 && (indents.at(-1) ?? 0) > column) indents.pop();
      if (indents.length === 0 || (indents.at(-1) ?? 0) < column) indents.push(column);
    }
    if (type === "flow-map-start" || type === "flow-seq-start") flow++;
    else if (type === "flow-map-end" || type === "flow-seq-end") {
      // Always a parse error; a text of them is one error a character (64 KiB: seconds).
      if (flow === 0) return over(start, `a \`${token}\` that closes no bracket`);
      flow--;
    } else if (type !== undefined && BLOCK_INDICATORS.has(type) && flow === 0) onLine++;
    if (type === "explicit-key-ind" && ++counts.keys > YAML_LIMITS.maxExplicitKeys) {
      return over(start, `more than ${YAML_LIMITS.maxExplicitKeys} explicit keys (\`? \`)`);
    }
    if (type === "anchor" && ++counts.anchors > YAML_LIMITS.maxAnchors) {
      return over(start, `more than ${YAML_LIMITS.maxAnchors} anchors (&name)`);
    }
    if (type === "alias" && ++counts.aliases > YAML_LIMITS.maxAliases) {
      return over(start, `more than ${YAML_LIMITS.maxAliases} aliases (*name)`);
    }
    if (type === "tag" && ++counts.tags > YAML_LIMITS.maxTags) {
      return over(start, `more than ${YAML_LIMITS.maxTags} tags (!name)`);
    }
    const depth = indents.length + onLine + flow;
    if (depth > YAML_LIMITS.maxDepth) {
      return over(
        start,
        `lists, mappings and brackets nest deeper than ${YAML_LIMITS.maxDepth} levels`,
      );
    }
  }
  return undefined;
}

/** The 1-based line and column of `offset` in `text`. */
export function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A parsed document and its line counter, or the limit the text crossed. */
export type ParsedYaml =
  | { ok: true; yaml: typeof Yaml; doc: Yaml.Document.Parsed; lines: Yaml.LineCounter }
  | { ok: false; problem: YamlLimitProblem };

/**
 * The first key a mapping of `doc` holds twice (compared by value), with its
 * offset. One set a mapping: yaml's own check (`uniqueKeys`) compares each
 * key with every earlier one, and 64 KiB of short keys took 1-2 s.
 */
export function firstDuplicateKey(
  yaml: typeof Yaml,
  doc: Yaml.Document.Parsed,
): { key: unknown; offset: number } | undefined {
  let duplicate: { key: unknown; offset: number } | undefined;
  yaml.visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!yaml.isScalar(key)) continue;
        const offset = key.range?.[0] ?? 0;
        if (seen.has(key.value) && (!duplicate || offset < duplicate.offset)) {
          duplicate = { key: key.value, offset };
        }
        seen.add(key.value);
      }
    },
  });
  return duplicate;
}

/**
 * The one way a repository's YAML is parsed: {@link yamlLimitProblem} first,
 * then yaml's `parseDocument` (nothing printed: warnings and errors stay on
 * the document), then the parsed nesting checked again before any value is
 * built (`toJS` turns a key that is a list or mapping into text, the costly
 * part). `maxChars` is the text's cap (its entry of {@link YAML_TEXT_CAPS});
 * the other `options` are parseDocument's; a key found twice is an error on the
 * document (`DUPLICATE_KEY`), found by {@link firstDuplicateKey}, unless
 * `uniqueKeys` is false (the caller checks it).
 */
export function parseYaml(
  text: string,
  options: { maxChars?: number } & Yaml.ParseOptions & Yaml.DocumentOptions = {},
): ParsedYaml {
  const { maxChars, uniqueKeys, ...parseOptions } = options;
  const problem = yamlLimitProblem(text, maxChars);
  if (problem) return { ok: false, problem };
  const yaml = loadYaml();
  const lines = new yaml.LineCounter();
  // No prettyErrors: it quotes the text around each error, scanning the text
  // for each, and a 31 KB block of stray `]` or bad escapes holds 15,000
  // errors. Callers locate an error with `lines` and its `pos`. Nor stack
  // traces: each error is an Error, and capturing its stack was two thirds
  // of the parse of such a block.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let doc: Yaml.Document.Parsed;
  try {
    doc = yaml.parseDocument(text, {
      logLevel: "silent",
      prettyErrors: false,
      ...parseOptions,
      uniqueKeys: false,
      lineCounter: lines,
    });
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const duplicate = uniqueKeys === false ? undefined : firstDuplicateKey(yaml, doc);
  if (duplicate) {
    const at: [number, number] = [duplicate.offset, duplicate.offset + 1];
    const message = `key "${String(duplicate.key)}" appears twice`;
    doc.errors.push(new yaml.YAMLParseError(at, "DUPLICATE_KEY", message));
    doc.errors.sort((a, b) => a.pos[0] - b.pos[0]);
  }
  let deepest: { depth: number; offset: number } | undefined;
  yaml.visit(doc, {
    Node(_, node, path) {
      if (!yaml.isCollection(node)) return undefined;
      const depth = path.filter((p) => yaml.isCollection(p)).length + 1;
      // Twice the lexer's bound: a layout that bound missed, not a file it allowed.
      if (depth <= 2 * YAML_LIMITS.maxDepth) return undefined;
      deepest = { depth, offset: node.range?.[0] ?? 0 };
      return yaml.visit.BREAK;
    },
  });
  if (deepest) {
    const pos = lines.linePos(deepest.offset);
    return {
      ok: false,
      problem: {
        message: `lists, mappings and brackets nest deeper than ${YAML_LIMITS.maxDepth} levels`,
        line: pos.line,
        column: pos.col,
      },
    };
  }
  return { ok: true, yaml, doc, lines };
}

/**
 * A mapping's key as a message names it, never walked into: a scalar's
 * value as {@link describe} writes it in YAML's words (`"2fa"`, `1`, and
 * "nothing" for a null key, `~:`), a list or a mapping by its kind ("a list",
 * "a mapping"), an alias by its anchor (`an alias (*a)`). Before, every key
 * that was no scalar was "nothing" (review rev107b F2).
 */
export function shownKey(yaml: typeof Yaml, key: unknown): string {
  if (yaml.isScalar(key)) return describe(key.value, "yaml");
  if (yaml.isMap(key)) return "a mapping";
  if (yaml.isSeq(key)) return "a list";
  if (yaml.isAlias(key)) {
    const anchor = key.source.length > 60 ? `${key.source.slice(0, 60)}…` : key.source;
    return `an alias (*${anchor})`;
  }
  return describe(key, "yaml");
}
