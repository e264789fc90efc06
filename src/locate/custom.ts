import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { readTextFile } from "../_fs.js";
import type { CustomPrompt } from "../sections/render.js";
import { SyspromptError } from "../types.js";
import type { LoadedLayer } from "./load-layer.js";

/**
 * An option or flag value that is text or a path. An existing readable file is
 * read; an existing path that is not a readable text file is a usage error
 * (the caller named it explicitly); anything else is the text itself.
 */
export async function readTextOrPath(
  value: string,
  cwd: string,
  what: string,
): Promise<{ text: string; path?: string }> {
  // Multi-line values are prompt text, never paths; skip the file system.
  if (value.includes("\n") || value.trim() === "") return { text: value };
  const path = resolve(cwd, value);
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch {
    // Not an existing path (or not a possible one, like ENAMETOOLONG): literal text.
    return { text: value };
  }
  if (!isFile) {
    throw new SyspromptError(
      "bad-argument",
      `${what}: "${value}" exists but is not a file; pass a text file or the prompt text itself`,
    );
  }
  const read = await readTextFile(path);
  if (!read.ok) {
    throw new SyspromptError(
      "bad-argument",
      `${what}: cannot use "${value}": ${read.diagnostics[0]?.message ?? read.reason}`,
    );
  }
  return { text: read.text, path };
}

/**
 * The custom base prompt candidates as a chain, highest first: the explicit
 * option, then the project's SYSTEM.md / SYSTEM_TEMPLATE.md, then the user's.
 * Each links to the next as `lower`, which render uses when a template fails
 * (then the builtin base). Literal text never fails, so the chain ends at the
 * first literal one. Null when there is no candidate.
 */
export function chooseCustomPrompt(
  option: CustomPrompt | null,
  layers: readonly LoadedLayer[],
): CustomPrompt | null {
  const candidates = [option, ...[...layers].reverse().map((l) => l.system)].filter(
    (c): c is CustomPrompt => c !== null,
  );
  const end = candidates.findIndex((c) => !c.template);
  const used = end < 0 ? candidates : candidates.slice(0, end + 1);
  return used.reduceRight<CustomPrompt | null>(
    (lower, c) => ({ ...withoutLower(c), ...(lower ? { lower } : {}) }),
    null,
  );
}

function withoutLower(prompt: CustomPrompt): CustomPrompt {
  const { lower: _, ...rest } = prompt;
  return rest;
}

/**
 * The addendum: the highest layer's APPEND_SYSTEM.md (the project's replaces
 * the user's; they are not merged) followed by every appended value, joined by
 * blank lines.
 */
export function buildAppendPrompt(
  layers: readonly LoadedLayer[],
  appended: readonly string[],
): string {
  const file = [...layers].reverse().find((l) => l.append !== null)?.append ?? "";
  return [file, ...appended.map((a) => a.trim())].filter((p) => p !== "").join("\n\n");
}
