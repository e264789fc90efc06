// readTextOrPath moved to text-or-path.ts (it is read by options.ts, which
// load-layer.ts reads: keeping it here made an import circle).
export { readTextOrPath } from "./text-or-path.js";

import { closeOpenBlocks } from "../_fence.js";
import type { CustomPrompt } from "../sections/render.js";
import type { LoadedLayer } from "./load-layer.js";

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

/** One part of the addendum, with whether a repository may have written it. */
export interface AppendPart {
  text: string;
  /**
   * True for a project's APPEND_SYSTEM.md, and for the one a host resolved
   * itself (pi's, which may be the project's): such a text never counts as the
   * user's own in dedupe, so quoting the user's rule there does not take it out.
   */
  repository: boolean;
}

/**
 * The addendum's parts, in order: the highest layer's APPEND_SYSTEM.md (the
 * project's replaces the user's; they are not merged), then every appended
 * value. With `hostResolved`, the first appended value is the host's
 * APPEND_SYSTEM.md (`resolvedAppendPrompt`).
 */
export function appendParts(
  layers: readonly LoadedLayer[],
  appended: readonly string[],
  hostResolved = false,
): AppendPart[] {
  const layer = [...layers].reverse().find((l) => l.append !== null);
  return [
    { text: layer?.append ?? "", repository: layer?.layer === "project" },
    ...appended.map((a, i) => ({ text: a.trim(), repository: hostResolved && i === 0 })),
  ].filter((p) => p.text !== "");
}

/**
 * The addendum: the highest layer's APPEND_SYSTEM.md (the project's replaces
 * the user's; they are not merged) followed by every appended value, joined by
 * blank lines. Each ends with no fenced code block, HTML block or comment left
 * open ({@link closeOpenBlocks}), as every repository text in the prompt: a
 * project's APPEND_SYSTEM.md ending in ```` ``` ```` would otherwise turn the
 * appended values, the user's AGENTS.md and every later section into code.
 */
export function buildAppendPrompt(
  layers: readonly LoadedLayer[],
  appended: readonly string[],
): string {
  return joinAppend(appendParts(layers, appended));
}

/** The addendum's text from its parts. */
export function joinAppend(parts: readonly AppendPart[]): string {
  return parts.map((p) => closeOpenBlocks(p.text)).join("\n\n");
}
