import { describe, expect, it } from "vitest";
import { createEngine, PromptWork, TemplateError } from "../../src/engine/index.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev46c F2 (issue 24): since a failing template keeps no
// syntax tree (rev45b F3), each level of a failing partial chain parsed its
// text again to place the error. A 45 KB partial that includes itself fails
// 16 levels deep: 16 parses of it for every section calling it, none
// counted; 60 sections took 91 s of CPU at a 3 s deadline. Now a template's
// places are found once (its answers kept, not its tree), and each parse
// counts as one of the prompt's compiles.

const TAGS = 4_990;
const SECTIONS = 10;

describe("hostile repository: a failing partial chain is placed, not parsed again per level", () => {
  it(`a ${TAGS}-tag partial that includes itself, called by ${SECTIONS} sections of one prompt`, async () => {
    const engine = createEngine();
    engine.registerPartial("p", `{{> p}}{{#if nothing}}${"{{a.b.c}}".repeat(TAGS)}{{/if}}`);
    const work = new PromptWork();
    const errors: unknown[] = [];
    const { cpuMs } = await cpuTimed(() => {
      for (let i = 0; i < SECTIONS; i++) {
        try {
          engine.render(`S${i}\n{{> p}}`, {}, { work });
        } catch (error) {
          errors.push(error);
        }
      }
    });
    expect(errors).toHaveLength(SECTIONS);
    for (const error of errors) {
      expect(error).toBeInstanceOf(TemplateError);
      // Still placed: the section's call, and the partial's own, level after level.
      expect((error as TemplateError).line).toBe(2);
      expect(String((error as Error).message)).toMatch(/includes itself/);
    }
    // Before: 160 parses of the 45 KB text, 14.9 s of CPU here (loaded); now one, 1.8 s (its one compile, mostly).
    expect(cpuMs).toBeLessThan(6_000);
    // The parse that placed it counts as a compile of the prompt's: p compiled once, placed once, and the sections'.
    expect(work.compiles.compiled).toBeLessThanOrEqual(2 * SECTIONS + 2);
  }, 60_000);
});
