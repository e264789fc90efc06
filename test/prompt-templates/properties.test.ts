// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCommandArgs, substituteArgs } from "../../src/prompt-templates/index.js";

/** Text rich in placeholder syntax, so that re-substitution would show. */
const placeholderish = fc.string({
  unit: fc.constantFrom("$", "1", "2", "@", "{", "}", ":", "-", "x", " ", "ARGUMENTS"),
  maxLength: 20,
});

describe("properties", () => {
  it("substitution never re-substitutes an argument value", () => {
    fc.assert(
      fc.property(fc.array(placeholderish, { maxLength: 5 }), (args) => {
        const template = args.map((_, i) => `<$${i + 1}>`).join("");
        const expected = args.map((arg) => `<${arg}>`).join("");
        expect(substituteArgs(template, args)).toEqual(expected);
        expect(substituteArgs("<$@>", args)).toEqual(`<${args.join(" ")}>`);
        expect(substituteArgs("<${ARGUMENTS:-d}>", args)).toEqual(
          `<${args.join(" ") === "" ? "d" : args.join(" ")}>`,
        );
      }),
    );
  });

  it("substitution never re-substitutes a default", () => {
    fc.assert(
      fc.property(
        placeholderish.filter((text) => !text.includes("}")),
        (fallback) => {
          expect(substituteArgs(`\${3:-${fallback}}`, ["$1", "$@"])).toEqual(fallback);
        },
      ),
    );
  });

  it("quoting backslash-free arguments and parsing them back is the identity", () => {
    const argument = fc.string({ unit: fc.constantFrom("a", "'", '"', " ", "\t", "\n", "$", "é") });
    fc.assert(
      fc.property(fc.array(argument, { maxLength: 6 }), (args) => {
        const quoted = args.map((arg) => `"${arg.replaceAll('"', '\\"')}"`).join(" ");
        expect(parseCommandArgs(quoted)).toEqual(args);
      }),
    );
  });

  it("quoting with any string unit also round-trips when the arguments hold no backslash", () => {
    fc.assert(
      fc.property(fc.array(fc.string().filter((s) => !s.includes("\\"))), (args) => {
        const quoted = args.map((arg) => `"${arg.replaceAll('"', '\\"')}"`).join(" ");
        expect(parseCommandArgs(quoted)).toEqual(args);
      }),
    );
  });
});
