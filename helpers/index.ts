import type { HelperDelegate } from "handlebars";
import { collectionHelpers } from "./collections.js";
import { listHelpers } from "./list.js";
import { logicHelpers, splitHelperArgs } from "./logic.js";
import { textHelpers } from "./text.js";
import { escapeXml, xmlBlock } from "./xml.js";

export { hasMark, READS_BLOCK, WALKS_KEYS } from "./_cost.js";
export { contains, isList, sizeOf } from "./collections.js";
export { isTruthy } from "./logic.js";
export { MAX_HELPER_TEXT, unescapeSeparator } from "./text.js";
export { escapeXml, xmlBlock } from "./xml.js";

/** `{{escapeXml value}}`; with no argument there is nothing to escape. */
function escapeXmlHelper(...args: unknown[]): string {
  const [params] = splitHelperArgs(args);
  return escapeXml(params[0]);
}

const xmlHelpers: Readonly<Record<string, HelperDelegate>> = {
  escapeXml: escapeXmlHelper,
  xml: xmlBlock,
};

/** Every helper templates can use, by name. One place, so `sysprompt check` and the engine agree. */
export const builtinHelpers: Readonly<Record<string, HelperDelegate>> = {
  ...listHelpers,
  ...logicHelpers,
  ...collectionHelpers,
  ...textHelpers,
  ...xmlHelpers,
};

/** Anything helpers can be registered on, such as an `Engine`. */
export interface HelperRegistry {
  registerHelper(name: string, fn: HelperDelegate): void;
}

/** Registers all of `builtinHelpers` on `registry`. */
export function registerBuiltinHelpers(registry: HelperRegistry): void {
  for (const [name, fn] of Object.entries(builtinHelpers)) registry.registerHelper(name, fn);
}
