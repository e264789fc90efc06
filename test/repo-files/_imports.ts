import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

// What the architecture tests of src/ (one door, one walker) read: which
// functions of a given table each source file imports as values.

/** Every TypeScript source file under `path`. */
export function sourceFiles(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => {
    const child = join(path, e.name);
    if (e.isDirectory()) return sourceFiles(child);
    return /\.[cm]?ts$/.test(e.name) ? [child] : [];
  });
}

/**
 * The functions of `table` (names by module: `node:…` whole, else the
 * module file's base name) that `text` imports as values, as `module:name`;
 * a whole `node:fs` import counts as `node:fs:*`.
 */
export function namedImports(text: string, table: Record<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/g)) {
    if (m[1]) continue;
    const from = m[3] ?? "";
    const key = from.startsWith("node:")
      ? from
      : (from.split("/").pop() ?? "").replace(/\.js$/, "");
    const names = table[key];
    if (!names) continue;
    for (const part of (m[2] ?? "").split(",")) {
      const name = (part.trim().split(/\s+as\s+/)[0] ?? "").trim();
      if (name && !name.startsWith("type ") && names.includes(name)) found.push(`${key}:${name}`);
    }
  }
  if (/import\s+\*\s+as\s+\w+\s+from\s+"node:fs/.test(text)) found.push("node:fs:*");
  return found;
}

/** Each file under `src`, but the `allowed` ones, that imports a function of `table`, as `rel imports module:name`. */
export function importsOutside(
  src: string,
  allowed: Record<string, string>,
  table: Record<string, readonly string[]>,
): string[] {
  const outside: string[] = [];
  for (const file of sourceFiles(src)) {
    const rel = relative(src, file).split("\\").join("/");
    if (rel in allowed) continue;
    for (const name of namedImports(readFileSync(file, "utf8"), table)) {
      outside.push(`${rel} imports ${name}`);
    }
  }
  return outside;
}
