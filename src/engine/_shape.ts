import { type ScannedTag, scanTags } from "./_scan.js";
import {
  MAX_TEMPLATE_NESTING,
  MAX_TEMPLATE_PARTIAL_CALLS,
  MAX_TEMPLATE_TAGS,
  MAX_TEMPLATE_WORDS,
} from "./limits.js";

/** A problem found by scanning, located by 1-based line and column. */
export interface ShapeProblem {
  message: string;
  line: number;
  column: number;
}

/** 1-based line and column of `offset` in `source`. */
export function lineColumnAt(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (source.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Checks the limits of `limits.ts` in one pass, before Handlebars parses the
 * source: undefined when the template is within them, else the first limit
 * crossed and the tag that crossed it.
 */
export function checkTemplateShape(source: string): ShapeProblem | undefined {
  let tags = 0;
  let words = 0;
  let partialCalls = 0;
  // Per open block, how many `{{else x}}` chains it holds: each nests one deeper in the parser.
  const chainsPerBlock: number[] = [];
  let chains = 0;
  let problem: { message: string; offset: number } | undefined;
  scanTags(source, (tag) => {
    tags++;
    words += tag.words;
    if (callsPartial(source, tag)) partialCalls++;
    if (tag.kind === "open") {
      chainsPerBlock.push(0);
    } else if (tag.kind === "close") {
      chains -= chainsPerBlock.pop() ?? 0;
    } else if (tag.kind === "else-chain" && chainsPerBlock.length > 0) {
      chainsPerBlock[chainsPerBlock.length - 1] = (chainsPerBlock.at(-1) ?? 0) + 1;
      chains++;
    }
    const depth = chainsPerBlock.length + chains + tag.subexpressionDepth;
    if (depth > MAX_TEMPLATE_NESTING) {
      problem = {
        message: `Blocks, else-chains and subexpressions are nested more than ${MAX_TEMPLATE_NESTING} deep`,
        offset: tag.offset,
      };
    } else if (tags > MAX_TEMPLATE_TAGS) {
      problem = {
        message: `Template too large: more than ${MAX_TEMPLATE_TAGS} tags; split it into smaller sections`,
        offset: tag.offset,
      };
    } else if (words > MAX_TEMPLATE_WORDS) {
      problem = {
        message: `Template too large: more than ${MAX_TEMPLATE_WORDS} words inside its tags`,
        offset: tag.offset,
      };
    } else if (partialCalls > MAX_TEMPLATE_PARTIAL_CALLS) {
      problem = {
        message: `Template too large: more than ${MAX_TEMPLATE_PARTIAL_CALLS} partial calls; split it into smaller sections, or loop over a list with one call`,
        offset: tag.offset,
      };
    }
    return problem === undefined;
  });
  if (problem === undefined) return undefined;
  return { message: problem.message, ...lineColumnAt(source, problem.offset) };
}

/** Whether `tag` calls a partial: `{{> name}}` or `{{#> name}}` (with `~` after the braces), never an escaped `\{{`. */
function callsPartial(source: string, tag: ScannedTag): boolean {
  if (tag.escaped) return false;
  let j = tag.offset + 2;
  if (source.charCodeAt(j) === 0x7e) j++; // ~
  const sigil = source.charCodeAt(j);
  return sigil === 0x3e || (sigil === 0x23 && source.charCodeAt(j + 1) === 0x3e); // > or #>
}

/** What compiling a template costs the prompt's totals: its tags, and the words inside them. */
export interface TemplateSize {
  tags: number;
  words: number;
}

/**
 * How many tags `source` holds, and words inside them: what compiling it
 * costs. Undefined past a template's own caps: such a template is refused
 * before it is parsed ({@link checkTemplateShape}) and costs nothing to compile.
 */
export function templateSize(source: string): TemplateSize | undefined {
  let tags = 0;
  let words = 0;
  scanTags(source, (tag) => {
    tags++;
    words += tag.words;
    return tags <= MAX_TEMPLATE_TAGS && words <= MAX_TEMPLATE_WORDS;
  });
  return tags <= MAX_TEMPLATE_TAGS && words <= MAX_TEMPLATE_WORDS ? { tags, words } : undefined;
}

/**
 * Finds the innermost block left open at the end of the source. Handlebars
 * reports an unclosed block at the end of input, which points away from the
 * mistake; this points at the opener instead. A closer ends the latest open
 * block of its name and every block opened after it.
 */
export function findUnclosedBlock(
  source: string,
): { name: string; line: number; column: number } | undefined {
  const open: { name: string; offset: number }[] = [];
  // Indexes into `open` per name, so a closer finds its opener without a search.
  const indexesByName = new Map<string, number[]>();
  scanTags(source, (tag) => {
    if (tag.kind === "open") {
      const indexes = indexesByName.get(tag.name);
      if (indexes) indexes.push(open.length);
      else indexesByName.set(tag.name, [open.length]);
      open.push({ name: tag.name, offset: tag.offset });
    } else if (tag.kind === "close") {
      const at = indexesByName.get(tag.name)?.at(-1);
      if (at === undefined) return true;
      // Each entry is removed once, so all closers together cost linear time.
      for (let k = open.length - 1; k >= at; k--) {
        const name = open[k]?.name;
        if (name !== undefined) indexesByName.get(name)?.pop();
      }
      open.length = at;
    }
    return true;
  });
  const last = open.at(-1);
  if (last === undefined) return undefined;
  return { name: last.name, ...lineColumnAt(source, last.offset) };
}
