import { HOST_ELEMENTS, TEXT_ELEMENTS, wrapperNames } from "../_prompt-text.js";
import { builtinPromptsDir } from "../locate/layers.js";
import { loadLayer } from "../locate/load-layer.js";

/**
 * The element names the builtin prompt prints (prompts/: each section's tag,
 * every element its sections and partials open or close, `{{#xml}}`'s
 * included), read as a session reads the builtin layer's
 * (`layerElementNames`, src/session/touch.ts: {@link wrapperNames} over its
 * sections and partials), sorted, less the names {@link wrapperNames} and
 * `repositoryNames` add to every set (the hosts', `TEXT_ELEMENTS`). src/_builtin-element-names.ts holds them,
 * written from this by `node dist/src/build/write-builtin-element-names.js`;
 * test/misc/builtin-element-names.test.ts checks that it is current.
 */
export async function builtinElementNames(dir: string = builtinPromptsDir()): Promise<string[]> {
  const layer = await loadLayer(dir, "builtin", { customFiles: false });
  const always = new Set([...TEXT_ELEMENTS, ...HOST_ELEMENTS]);
  const names = wrapperNames(layer.sections, false, Object.values(layer.partials));
  return [...names].filter((n) => !always.has(n)).sort();
}

/** The module src/_builtin-element-names.ts, holding `names`. */
export function builtinElementNamesModule(names: readonly string[]): string {
  return `// Written by \`node dist/src/build/write-builtin-element-names.js\` (src/build/builtin-element-names.ts)
// from prompts/: do not edit. test/misc/builtin-element-names.test.ts checks that it is current.

/**
 * The element names the builtin prompt prints (its sections' tags and every
 * element its templates open, close or write with \`{{#xml}}\`), held in every
 * repository text (\`repositoryNames\`, src/_prompt-text.ts) even where no
 * render, session or hook named the prompt's elements (a direct
 * \`loadContextForPaths\` with no \`wrappers\`: review rev91a F1).
 */
export const BUILTIN_ELEMENTS: readonly string[] = [
${names.map((n) => `  ${JSON.stringify(n)},`).join("\n")}
];
`;
}
