// readTextOrPath moved to text-or-path.ts (it is read by options.ts, which
// load-layer.ts reads: keeping it here made an import circle).

export type { AppendPart } from "../options.js";
export { readTextOrPath } from "./text-or-path.js";

import { closeOpenBlocksOnOwnLine } from "../_fence.js";
import { elementText } from "../_prompt-text.js";
import type { AppendPart, NormalizedOptions } from "../options.js";
import type { CustomPrompt } from "../sections/render.js";
import type { Diagnostic } from "../types.js";
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

/**
 * The addendum's parts, in order: the highest layer's APPEND_SYSTEM.md (the
 * project's replaces the user's; they are not merged; the project's is the
 * repository's), then every appended value with the owner it was read with.
 */
export function appendParts(
  layers: readonly LoadedLayer[],
  appended: readonly AppendPart[],
): AppendPart[] {
  const layer = [...layers].reverse().find((l) => l.append !== null);
  return [
    { text: layer?.append ?? "", repository: layer?.layer === "project" },
    ...appended.map((a) => ({ text: a.text.trim(), repository: a.repository })),
  ].filter((p) => p.text !== "");
}

/**
 * The addendum's text from its parts, joined by blank lines. Each ends with no
 * fenced code block, HTML block or comment left open, its closer on a line of
 * its own ({@link closeOpenBlocksOnOwnLine}: a template may print the text
 * mid-line, `{{appendPrompt}} (end).`), as every repository text in the prompt: a project's APPEND_SYSTEM.md ending
 * in ```` ``` ```` would otherwise turn the appended values, the user's
 * AGENTS.md and every later section into code. A repository's part opens and
 * closes none of the prompt's elements either ({@link elementText}): a project
 * file named by `--append-system-prompt` wrote `</addendum>` and
 * `<user_instructions path="~/.pi/agent/AGENTS.md">` raw.
 */
export function joinAppend(parts: readonly AppendPart[], wrappers: ReadonlySet<string>): string {
  return printedParts(parts, wrappers)
    .map((p) => p.text)
    .join("\n\n");
}

/** The addendum's parts as {@link joinAppend} prints them, each with its owner. */
export function printedParts(
  parts: readonly AppendPart[],
  wrappers: ReadonlySet<string>,
): AppendPart[] {
  return parts.map((p) => ({
    text: p.repository ? elementText(p.text, wrappers) : closeOpenBlocksOnOwnLine(p.text),
    repository: p.repository,
  }));
}

/**
 * One `project-replaces-user` info for each of your files a project's file
 * takes the place of (a project's APPEND_SYSTEM.md, SYSTEM.md or
 * general-rules.md replaces yours whole, as in pi; a SYSTEM_TEMPLATE.md
 * extends it instead), so the replacement is never silent.
 */
export function replacedByProject(
  layers: readonly LoadedLayer[],
  opts: Pick<NormalizedOptions, "systemPrompt">,
): Diagnostic[] {
  const user = layers.find((l) => l.layer === "user");
  const project = layers.find((l) => l.layer === "project");
  if (!user || !project) return [];
  const pairs: [string | undefined, string | undefined][] = [
    [project.appendPath, user.appendPath],
    [
      // `--system-prompt` replaces both; the project's replaced nothing of yours.
      project.system?.template === false && opts.systemPrompt === null
        ? project.system.source.path
        : undefined,
      user.system?.source.path,
    ],
    [project.generalRules?.path, user.generalRules?.path],
  ];
  return pairs.flatMap(([theirs, yours]) =>
    theirs !== undefined && yours !== undefined
      ? [
          {
            level: "info" as const,
            code: "project-replaces-user",
            message: `the project's ${theirs} replaces your ${yours} (a project's file of this name takes the place of yours; it is not added to it)`,
            path: theirs,
          },
        ]
      : [],
  );
}
