import { describe, expect, it } from "vitest";
import { createEngine, PromptWork, TemplateError } from "../../src/engine/index.js";
import { MAX_PROMPT_PLACE_PARSE_CHARS } from "../../src/engine/limits.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev47b F1 (issue 24): eng47 kept a failing template's
// places one answer at a time, at most 8 a template, and a render kept only
// the last tree it parsed. Sixteen sections failing on sixteen missing names
// filled two large partials' answers; then each level of a chain X > Y > X …
// parsed its partial's text again (16 parses a section), each charged as one
// compile by tags, not by the text parsed: 20 sections with 1 MB partials
// took 63 s of CPU at a 3 s deadline, and the filled answers stayed on the
// cached templates for the next prompt. Now a template compiled from its text
// takes every place from the parse its compile made: never parsed again. A
// template compiled ahead of time is parsed once, charged by its characters.

const PAD = 200_000;
const FILL = 8;
const CHAINS = 4;

function twoPartials() {
  const engine = createEngine();
  const pad = "\n".repeat(PAD);
  engine.registerPartial("X", `{{#if go}}{{> Y}}{{else}}{{> (default miss "z")}}{{/if}}${pad}`);
  engine.registerPartial("Y", `{{#if go}}{{> X}}{{else}}{{> (default miss "z")}}{{/if}}${pad}`);
  return engine;
}

function renderAll(
  engine: ReturnType<typeof createEngine>,
  work: PromptWork,
  sources: string[],
): TemplateError[] {
  const errors: TemplateError[] = [];
  for (const source of sources) {
    try {
      engine.render(source, {}, { work });
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateError);
      errors.push(error as TemplateError);
    }
  }
  return errors;
}

const fills = Array.from({ length: FILL }, (_, i) => [
  `A{{> X miss="mA${i}"}}`,
  `B{{> Y miss="mB${i}"}}`,
]).flat();
const chains = (tag: string) => Array.from({ length: CHAINS }, (_, j) => `${tag}${j}{{> X go=1}}`);

describe("hostile repository: a failing template's places come from its one parse", () => {
  it(`${2 * FILL} sections on different missing names, then ${CHAINS} X > Y > X chains, and the next prompt`, async () => {
    const engine = twoPartials();
    const work = new PromptWork();
    const { cpuMs, value } = await cpuTimed(() => {
      const filled = renderAll(engine, work, fills);
      // The sections, X and Y: the places of X and Y come from their compile (before: 16 parses more).
      const afterFill = work.compiles.compiled;
      const chained = renderAll(engine, work, chains("C"));
      const chainCharges = work.compiles.compiled - afterFill;
      // A long-lived host: the next prompt of the same engine.
      const next = new PromptWork();
      const again = renderAll(engine, next, chains("D"));
      return {
        filled,
        afterFill,
        chained,
        chainCharges,
        again,
        nextCharges: next.compiles.compiled,
      };
    });
    expect(value.filled).toHaveLength(2 * FILL);
    for (const error of value.filled) {
      // Still placed: the section's call, and the dynamic call inside the partial.
      expect(error.line).toBe(1);
      expect(error.message).toMatch(
        /In partial "[XY]" \(line 1, column 26\): Partial "m[AB]\d" not found/,
      );
    }
    expect(value.afterFill).toBe(2 * FILL + 2);
    expect(value.chained).toHaveLength(CHAINS);
    expect(value.again).toHaveLength(CHAINS);
    for (const error of [...value.chained, ...value.again]) {
      expect(error.line).toBe(1);
      expect(error.partialChain[0]).toEqual({ partial: "X", line: 1, column: 11 });
    }
    // Each chain section is one compile (its own text): none of X or Y again (before: 18 a section).
    expect(value.chainCharges).toBe(CHAINS);
    // The next prompt compiles its sections and takes X and Y from the cache (before: 72).
    expect(value.nextCharges).toBe(CHAINS);
    // Before: 6.2 s of CPU (the same run as a script, loaded machine); after: 0.5 s.
    expect(cpuMs).toBeLessThan(3_000);
  }, 60_000);

  it("a template compiled ahead of time is parsed once to place its errors, charged by its characters", () => {
    const source = `{{> (default miss "z")}}\n{{> gone}}{{#if nothing}}x{{/if}}${"\n".repeat(PAD)}`;
    const made = createEngine().precompile(source);
    const engine = createEngine();
    engine.preload([made]);
    const work = new PromptWork();
    const errors: TemplateError[] = [];
    for (const miss of ["m1", "m2", "m3"]) {
      try {
        engine.render(source, { miss }, { work });
      } catch (error) {
        errors.push(error as TemplateError);
      }
    }
    expect(errors).toHaveLength(3);
    for (const error of errors) {
      expect(error.message).toMatch(/Partial "m\d" not found/);
      expect(error.line).toBe(1);
      expect(error.column).toBe(1);
    }
    // Three names asked, one parse: its characters charged once.
    expect(work.compiles.parsedChars).toBe(source.length);

    // Past the prompt's total the parse is not made and the error has no place.
    const fresh = createEngine();
    fresh.preload([made]);
    const spent = new PromptWork();
    spent.compiles.parsedChars = MAX_PROMPT_PLACE_PARSE_CHARS - 10;
    const unplaced = renderAll(fresh, spent, [source]);
    expect(unplaced).toHaveLength(1);
    expect(unplaced[0]?.line).toBeUndefined();
    expect(spent.compiles.parsedChars).toBe(MAX_PROMPT_PLACE_PARSE_CHARS - 10);
  });
});
