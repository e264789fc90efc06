import type { RenderedSection } from "./types.js";

/**
 * What changed between two renders, by section name: the new text for a
 * changed or added section, `null` for a removed one. `undefined` when nothing
 * changed — what a harness sends mid-session instead of the whole prompt.
 * Names are the key: a result never has one twice (the custom base prompt is
 * `system`, and render leaves out a repeated name with a diagnostic).
 */
export function diffSections(
  prev: readonly Pick<RenderedSection, "name" | "text">[],
  next: readonly Pick<RenderedSection, "name" | "text">[],
): Record<string, string | null> | undefined {
  const before = new Map(prev.map((s) => [s.name, s.text]));
  const after = new Map(next.map((s) => [s.name, s.text]));
  const changes: Record<string, string | null> = {};
  let changed = false;
  for (const [name, text] of after) {
    if (before.get(name) !== text) {
      changes[name] = text;
      changed = true;
    }
  }
  for (const name of before.keys()) {
    if (!after.has(name)) {
      changes[name] = null;
      changed = true;
    }
  }
  return changed ? changes : undefined;
}
