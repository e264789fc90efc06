/**
 * Frontmatter read line by line, the way agents' own readers take a block
 * that is not valid YAML (an unquoted `: ` in a description, Cursor's
 * `globs: *.ts`): `key: value` lines, and `- item` lines under an empty
 * value. Linear, and never an error.
 */

/** A top-level `key: value` line. */
export const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(.*)$/;
/**
 * An indented `- item` line. The item starts at a character no blank can
 * take, so a U+2028 that stops the match costs one pass, not one per blank
 * (`-[ \t]*(.*)$` was quadratic; review rev68b F2).
 */
export const ITEM_LINE = /^[ \t]+-[ \t]*([^ \t\n\r\u2028\u2029][^\n\r\u2028\u2029]*)?$/;

/** `key: value` lines, values unquoted; an empty value followed by `- item` lines is a list. */
export function readKeyValueLines(lines: readonly string[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  let listKey: string | undefined;
  for (const line of lines) {
    const item = listKey !== undefined ? ITEM_LINE.exec(line) : null;
    if (item && listKey !== undefined) {
      const list = data[listKey];
      (Array.isArray(list) ? list : []).push(unquote(item[1] ?? ""));
      continue;
    }
    const m = KEY_LINE.exec(line);
    listKey = undefined;
    // `__proto__` would set the object's prototype, not a key.
    if (!m?.[1] || m[1] === "__proto__" || Object.hasOwn(data, m[1])) continue;
    const value = (m[2] ?? "").trim();
    if (value === "") {
      data[m[1]] = [];
      listKey = m[1];
    } else data[m[1]] = plainValue(value);
  }
  return data;
}

/** The 1-based file line of each key (the block starts on line 2); the first one wins. */
export function keyLinesOf(lines: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  lines.forEach((line, i) => {
    const key = KEY_LINE.exec(line)?.[1];
    // The block starts on the file's line 2.
    if (key && !Object.hasOwn(out, key)) out[key] = i + 2;
  });
  return out;
}

/** Unquoted `true` / `True` / `TRUE` (and false) are booleans, `null` and `~` null, a number a number, as YAML 1.2 reads them; anything else is text. */
function plainValue(value: string): unknown {
  if (/^(true|True|TRUE)$/.test(value)) return true;
  if (/^(false|False|FALSE)$/.test(value)) return false;
  if (/^(null|Null|NULL|~)$/.test(value)) return null;
  if (/^[-+]?(\d+|\d*\.\d+)$/.test(value)) return Number(value);
  return unquote(value);
}

/** A value without one pair of surrounding quotes. */
export function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0]) {
    return v.slice(1, -1).trim();
  }
  return v;
}
