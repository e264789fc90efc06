// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffSections } from "../../src/diff.js";
import { formatPrompt } from "../../src/engine/format.js";
import { dedupeContextFiles } from "../../src/gather/context/dedupe.js";
import { substituteArgs } from "../../src/prompt-templates/substitute.js";

// Properties of the pure text functions, over inputs rich in what they treat
// specially: fences, blank lines and line ends for the formatting pass;
// placeholder syntax for argument substitution; repeated paragraphs for
// dedupe; sections added, changed and removed for the diff.

describe("formatPrompt", () => {
  const unit = fc.constantFrom(
    ...[" ", "\t", "\n", "\r", "\r\n", "x", "`", "~", "   "],
    ...["```", "~~~", "````", "    ```", "```js", "\u00a0", "\u2028"],
  );

  it("is idempotent: formatting formatted text changes nothing", () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
        const once = formatPrompt(text);
        expect(formatPrompt(once)).toBe(once);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("substituteArgs", () => {
  /** Template text made of placeholders in every form, broken ones too, and plain text. */
  const template = fc
    .array(
      fc.constantFrom(
        ...["$1", "$2", "$10", "$0", "$@", "$ARGUMENTS", "${1:-d}", "${@:-d}", "${ARGUMENTS:-d}"],
        ...["${@:2}", "${@:1:2}", "${@:0}", "${", "}", "$", "${1:-", ":-", "x", " ", "\n"],
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(""));
  /** Argument values that look like placeholders themselves. */
  const value = fc.string({
    unit: fc.constantFrom("$", "1", "2", "@", "{", "}", ":", "-", "x", " ", "ARGUMENTS"),
    maxLength: 8,
  });

  it("never substitutes a value: inserted argument text is never scanned again", () => {
    fc.assert(
      fc.property(template, fc.array(value, { maxLength: 4 }), (text, args) => {
        // Stand-ins with no placeholder syntax, empty where the value is (so
        // that every default is chosen the same way), substituted first and
        // then swapped for the values: the same text only if no value was
        // read as a placeholder.
        const standIn = (i: number) => (args[i] === "" ? "" : `\u0001${i}\u0002`);
        let expected =
          substituteArgs(
            text,
            args.map((_, i) => standIn(i)),
          ) ?? "";
        args.forEach((arg, i) => {
          // A function, so that "$$" or "$&" in a value is not read as a replacement pattern.
          if (arg !== "") expected = expected.replaceAll(standIn(i), () => arg);
        });
        expect(substituteArgs(text, args)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("dedupeContextFiles", () => {
  /** Files from a small pool of paragraphs, so that copies and runs are common. */
  const files = fc
    .array(
      fc.array(fc.constantFrom("A", "B", "C", "D", "```\nA\n\nB\n```", ""), { maxLength: 5 }),
      { maxLength: 6 },
    )
    .map((lists) =>
      lists.map((paras, i) => ({ path: `/p/${i}/AGENTS.md`, content: paras.join("\n\n") })),
    );

  it("is idempotent, and never drops the last file", () => {
    fc.assert(
      fc.property(files, (input) => {
        const once = dedupeContextFiles(input);
        expect(dedupeContextFiles(once.files)).toEqual({ files: once.files, diagnostics: [] });
        if (input.length > 0) expect(once.files.at(-1)).toBe(input.at(-1));
        // What is kept keeps its order; a dropped file is named once.
        expect(input.filter((f) => once.files.includes(f))).toEqual(once.files);
        expect(once.diagnostics.length).toBe(input.length - once.files.length);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("diffSections", () => {
  /** A prompt's sections: unique names from a small pool, texts from a smaller one. */
  const sections = fc
    .uniqueArray(fc.constantFrom("a", "b", "c", "d", "e", "f"), { maxLength: 6 })
    .chain((names) =>
      fc.tuple(
        ...names.map((name) => fc.constantFrom("x", "y", "").map((text) => ({ name, text }))),
      ),
    );

  /** The small apply a harness does with a diff: the changes over the previous sections. */
  function applyDiff(
    prev: readonly { name: string; text: string }[],
    diff: Record<string, string | null> | undefined,
  ): Map<string, string> {
    const next = new Map(prev.map((s) => [s.name, s.text]));
    for (const [name, text] of Object.entries(diff ?? {})) {
      if (text === null) next.delete(name);
      else next.set(name, text);
    }
    return next;
  }

  it("applied to a, gives b (by name; the diff does not carry order)", () => {
    fc.assert(
      fc.property(sections, sections, (a, b) => {
        const diff = diffSections(a, b);
        expect(applyDiff(a, diff)).toEqual(new Map(b.map((s) => [s.name, s.text])));
        // Nothing changed is reported as nothing.
        expect(diff === undefined).toBe(
          a.length === b.length &&
            a.every((s) => b.some((t) => t.name === s.name && t.text === s.text)),
        );
      }),
      { numRuns: 3000 },
    );
  });
});
