import { describe, expect, it } from "vitest";
import { createEngine, type TemplateError } from "../../src/engine/index.js";
import {
  MAX_TEMPLATE_NESTING,
  MAX_TEMPLATE_TAGS,
  MAX_TEMPLATE_WORDS,
} from "../../src/engine/limits.js";

const engine = createEngine();

/** message, line and column of `check`'s error, or undefined when the template compiles. */
function checked(source: string) {
  const error: TemplateError | undefined = engine.check(source);
  return error && { message: error.message, line: error.line, column: error.column };
}

const NESTED = `Blocks, else-chains and subexpressions are nested more than ${MAX_TEMPLATE_NESTING} deep`;

// Templates at the limits are large: seconds on a loaded machine, against vitest's 5 s default.
describe("template limits, checked before Handlebars parses", { timeout: 30_000 }, () => {
  it("allows blocks nested exactly to the limit and refuses one more, at the opener", () => {
    const nest = (n: number) => `${"{{#if a}}".repeat(n)}x${"{{/if}}".repeat(n)}`;
    expect(checked(nest(MAX_TEMPLATE_NESTING))).toBeUndefined();
    expect(checked(`\n${nest(MAX_TEMPLATE_NESTING + 1)}`)).toEqual({
      message: NESTED,
      line: 2,
      column: MAX_TEMPLATE_NESTING * "{{#if a}}".length + 1,
    });
  });

  it("counts each {{else x}} of a chain as one level, since the parser nests them", () => {
    const chain = (n: number) => `{{#if a}}${"{{else if b}}".repeat(n)}{{/if}}`;
    expect(checked(chain(MAX_TEMPLATE_NESTING - 1))).toBeUndefined();
    expect(checked(chain(MAX_TEMPLATE_NESTING))?.message).toBe(NESTED);
    // A plain {{else}} does not nest, and closing the block ends its chain.
    expect(checked(`${chain(MAX_TEMPLATE_NESTING - 1)}${chain(5)}{{#if a}}{{else}}{{/if}}`)).toBe(
      undefined,
    );
  });

  it("counts subexpressions inside a tag", () => {
    const nest = (n: number) => `{{not ${"(not ".repeat(n)}x${")".repeat(n)}}}`;
    expect(checked(nest(MAX_TEMPLATE_NESTING))).toBeUndefined();
    expect(checked(nest(MAX_TEMPLATE_NESTING + 1))?.message).toBe(NESTED);
  });

  it("does not count what sits in comments, raw blocks, strings or escapes", () => {
    const deep = "{{#if a}}".repeat(MAX_TEMPLATE_NESTING + 1);
    expect(
      checked(
        `{{!-- ${deep} --}}{{! ${"{{#if a ".repeat(101)} }}{{{{raw}}}}${deep}{{{{/raw}}}}{{not "${deep}((("}}\\${deep.slice(0, 9)}`,
      ),
    ).toBeUndefined();
  });

  it("allows exactly the most tags and refuses one more", () => {
    expect(checked("{{!}}".repeat(MAX_TEMPLATE_TAGS))).toBeUndefined();
    expect(checked("{{!}}".repeat(MAX_TEMPLATE_TAGS + 1))).toEqual({
      message: `Template too large: more than ${MAX_TEMPLATE_TAGS} tags; split it into smaller sections`,
      line: 1,
      column: MAX_TEMPLATE_TAGS * "{{!}}".length + 1,
    });
  });

  it("counts escaped mustaches as tags: each one is a token for Handlebars", () => {
    expect(checked("\\{{x".repeat(MAX_TEMPLATE_TAGS + 1))?.message).toBe(
      `Template too large: more than ${MAX_TEMPLATE_TAGS} tags; split it into smaller sections`,
    );
  });

  it("allows exactly the most words inside tags and refuses one more", () => {
    const words = (n: number) => `{{not${" a".repeat(n - 1)}}}`;
    expect(checked(words(MAX_TEMPLATE_WORDS))).toBeUndefined();
    expect(checked(words(MAX_TEMPLATE_WORDS + 1))).toEqual({
      message: `Template too large: more than ${MAX_TEMPLATE_WORDS} words inside its tags`,
      line: 1,
      column: 1,
    });
  });
});

describe("finding the block left open", () => {
  const unclosed = (name: string, line: number, column: number) => ({
    message: `Block "${name}" is never closed: expected {{/${name}}}`,
    line,
    column,
  });

  it("skips a block opener inside a string", () => {
    expect(checked('{{#each xs}}\n{{not "{{#if a}}"}}')).toEqual(unclosed("each", 1, 1));
  });

  it("skips an escaped opener but sees one after an escaped backslash", () => {
    expect(checked("{{#each xs}}\n\\{{#if a}}")).toEqual(unclosed("each", 1, 1));
    expect(checked("{{#each xs}}\n\\\\{{#if a}}")).toEqual(unclosed("if", 2, 3));
  });

  it("skips openers inside a raw block", () => {
    expect(checked("{{#each xs}}{{{{raw}}}}{{#if a}}{{{{/raw}}}}")).toEqual(unclosed("each", 1, 1));
  });

  it("reports the innermost open block after closed ones", () => {
    expect(checked("{{#with a}}{{#if b}}{{/if}}\n  {{#list d}}{{#each e}}{{/each}}")).toEqual(
      unclosed("list", 2, 3),
    );
  });
});
