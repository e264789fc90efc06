/**
 * Limits on the shape of JSON text, checked in one pass before JSON.parse.
 * JSON.parse's time and memory go with the values it makes and their
 * nesting, not the bytes: 1 MiB of `[[[…]]]` took 0.4 s and 116 MB, 1 MiB
 * of `[[],[],…]` 0.1 s. The hook's stdin and Gemini CLI's settings files
 * each have their own limits (see their readers).
 */
export interface JsonShapeLimits {
  /** Deepest nesting of arrays and objects. */
  depth: number;
  /** Most arrays and objects. */
  containers: number;
  /** Most values (counted by their commas). */
  values: number;
  /**
   * Most object keys (counted by their colons). Each key name new in its
   * place makes JSON.parse build a hidden class: 99,000 objects of 20 new
   * names took 8 s of CPU and 750 MB.
   */
  keys: number;
}

/** Why JSON text is past `limits` (a phrase: "nests … deeper than 64 levels"), and the offset where it was seen. */
export interface JsonShapeProblem {
  problem: string;
  at: number;
}

/**
 * Whether JSON text is past `limits`, or undefined. One pass that skips
 * strings; text that is not JSON is left to JSON.parse to say so.
 */
export function jsonShapePast(text: string, limits: JsonShapeLimits): JsonShapeProblem | undefined {
  let depth = 0;
  let containers = 0;
  let values = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limits.depth) {
        return { problem: `nests deeper than ${limits.depth} levels`, at: i };
      }
      if (++containers > limits.containers) {
        return { problem: `holds more than ${limits.containers} arrays and objects`, at: i };
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && ++values > limits.values) {
      return { problem: `holds more than ${limits.values} values`, at: i };
    } else if (c === 0x3a && ++keys > limits.keys) {
      return { problem: `holds more than ${limits.keys} object keys`, at: i };
    }
  }
  return undefined;
}

/** The 1-based line of `text` that offset `at` falls on. */
export function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
