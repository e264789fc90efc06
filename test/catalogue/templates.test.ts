import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROMPT_DATA_FIELDS } from "../../src/data.js";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// Broken section templates in the project layer. Each is an override of the
// builtin `rules` section (or the project's SYSTEM_TEMPLATE.md): the builtin
// version renders instead, so the prompt is exactly the clean one, and one
// diagnostic points at the file, line and column. The fixtures are in
// test/fixtures/catalogue/<case>/.

const RULES = "project/app/.pi/sections/rules.md";
const PARTIALS = "project/app/.pi/partials";
const FALLBACK = "the builtin version is used instead";

/** The one error a broken `rules.md` gives: `message` then the fallback. */
const rulesError = (message: string, line?: number, column?: number) => (root: string) => [
  diag("error", "template", `${message}; ${FALLBACK}`, join(root, RULES), line, column),
];

/** A `check` finding in `rules.md`. */
const checkFinding =
  (...found: [code: string, message: string, line: number, column: number][]) =>
  (root: string) =>
    found.map(([code, message, line, column]) =>
      diag("error", code, message, join(root, RULES), line, column),
    );

/** The override's `rules` section holds exactly `lines`: nothing from a prototype, nothing lost. */
const rulesSection =
  (lines: (bad: Rendered) => string[]) =>
  (bad: Rendered): void => {
    expect(bad.result.sections.find((x) => x.name === "rules")?.text).toEqual(
      ["<rules>", ...lines(bad), "</rules>"].join("\n"),
    );
  };
const onlyRules = rulesSection((bad) => ["Rules:", ...bad.data.rules]);

const FIELDS = PROMPT_DATA_FIELDS.join(", ");

const unknownField = (name: string, field = name) =>
  `unknown field "${name}": the template data has no field "${field}" (it has: ${FIELDS})`;

const cases: CatalogueCase[] = [
  {
    name: "template-unclosed-block",
    bad: [RULES],
    expected: rulesError('Block "if" is never closed: expected {{/if}}', 5, 1),
  },
  {
    name: "template-mismatched-close",
    bad: [RULES],
    expected: rulesError("{{/each}} closes the block if: expected {{/if}}", 5, 4),
  },
  {
    name: "template-unclosed-mustache",
    bad: [RULES],
    expected: rulesError(
      "found `{{#…}}`; expected `}}`, `}}}`, a name or value, `)`, `as |…|`, or a path separator (`.` or `/`)",
      5,
      1,
    ),
  },
  {
    name: "template-stray-close",
    bad: [RULES],
    expected: rulesError("`{{/…}}` closes no open block", 6, 1),
  },
  {
    name: "template-else-outside-block",
    bad: [RULES],
    expected: rulesError("`{{else}}` outside a block", 6, 1),
  },
  {
    name: "template-empty-mustache",
    bad: [RULES],
    expected: rulesError("found `}}`; expected a name or value", 5, 5),
  },
  {
    name: "template-bad-hash",
    bad: [RULES],
    expected: rulesError("found `}}`; expected a name or value", 5, 22),
  },
  {
    name: "template-unclosed-comment",
    bad: [RULES],
    expected: rulesError(
      "cannot read the template from here: an unclosed {{!-- comment, or a character {{ }} does not allow",
      5,
      1,
    ),
  },
  {
    name: "template-unclosed-subexpression",
    bad: [RULES],
    expected: rulesError("found `}}`; expected a name or value, or `)`", 4, 25),
  },
  {
    name: "template-triple-stash-mismatch",
    bad: [RULES],
    expected: rulesError("found `}}`; expected `}}}`, or a name or value", 5, 9),
  },
  {
    // 101 nested {{#if}}: refused before Handlebars parses it, at the 101st opener.
    name: "template-nesting-limit",
    bad: [RULES],
    expected: rulesError(
      "Blocks, else-chains and subexpressions are nested more than 100 deep",
      5,
      1301,
    ),
  },
  {
    name: "helper-unknown",
    bad: [RULES],
    expected: rulesError('Unknown helper "shout"', 5, 16),
  },
  {
    name: "helper-unknown-block",
    bad: [RULES],
    expected: rulesError('Unknown helper "shout"', 5, 1),
  },
  {
    name: "helper-unknown-subexpression",
    bad: [RULES],
    expected: rulesError('Unknown helper "shout"', 5, 8),
  },
  {
    // `{{#shout}}` without arguments is Mustache's section over a field: it
    // renders nothing for a field that is not there, as `{{shout}}` would.
    // The render cannot tell a typo from an empty field; check can.
    name: "helper-unknown-section-block",
    bad: [RULES],
    changed: ["rules"],
    expected: () => [],
    verify: rulesSection(() => ["Rules:"]),
    check: checkFinding(["unknown-field", unknownField("shout"), 5, 4]),
  },
  {
    name: "helper-unknown-raw-block",
    bad: [RULES],
    changed: ["rules"],
    expected: () => [],
    verify: rulesSection(() => ["Rules:"]),
    check: checkFinding(["unknown-field", unknownField("shout"), 5, 5]),
  },
  {
    name: "decorator-unknown",
    bad: [RULES],
    expected: rulesError('Unknown decorator "shout"; only "inline" exists', 5, 1),
  },
  {
    name: "partial-unknown",
    bad: [RULES],
    expected: rulesError('Partial "nope" not found', 5, 3),
  },
  {
    name: "partial-unknown-in-partial",
    bad: [RULES, PARTIALS],
    expected: rulesError(
      'In partial "outer" (line 2, column 1): Partial "missing" not found',
      5,
      1,
    ),
  },
  {
    name: "partial-recursive",
    bad: [RULES, PARTIALS],
    expected: rulesError(
      'In partial "loop" (line 1, column 7) ×16 > "loop": Partial "loop" includes itself: partials nested more than 16 deep',
      5,
      1,
    ),
  },
  {
    name: "partial-mutually-recursive",
    bad: [RULES, PARTIALS],
    expected: rulesError(
      'In partial "ping" (line 1, column 6) > "pong" (line 1, column 6) > "ping" (line 1, column 6) > … 11 more … > "ping" (line 1, column 6) > "pong" (line 1, column 6) > "ping": Partial "ping" includes itself: partials nested more than 16 deep',
      6,
      1,
    ),
  },
  {
    name: "partial-inline-recursive",
    bad: [RULES],
    // Located at the first `{{> again}}`: the one inside "again" itself.
    expected: rulesError(
      'In partial "again" ×17: Partial "again" includes itself: partials nested more than 16 deep',
      5,
      23,
    ),
  },
  {
    name: "partial-dynamic-name",
    bad: [RULES],
    expected: rulesError('Partial "a coding agent" not found', 5, 1),
  },
  {
    // d14 includes d13 twice, and so on down to 1 KiB of text: 16 MiB if it ran to the end.
    name: "partial-output-doubling",
    bad: [RULES, PARTIALS],
    expected: rulesError(
      // Each level's finishing step reads its partial's text again (eng46): 15 doubling levels
      // read far more than the 8 MiB they print, and that count (8 MiB a render since rev46c F4)
      // stops the render first, one level sooner than at 32 MiB: at a d0's finishing since each
      // level's text is marked to be placed where it is printed (rev68c F3), some 40 characters more.
      'In partial "d14" (line 1, column 1) > "d13" (line 1, column 1) > "d12" (line 1, column 1) > … 9 more … > "d2" (line 1, column 1) > "d1" (line 1, column 1) > "d0": Render stopped: blocks and partials read their text again past 8 MiB (a {{#xml}} block or a partial nested around a long text, each level reading it all)',
      5,
      1,
    ),
  },
  {
    // Prototype properties are never read: the rules render, the rest is empty.
    name: "proto-constructor",
    bad: [RULES],
    changed: ["rules"],
    expected: () => [],
    verify: onlyRules,
    check: checkFinding(
      ["unknown-field", unknownField("constructor.name", "constructor"), 6, 3],
      [
        "unknown-field",
        'unknown field "rules.constructor": "rules" is a list and has no field "constructor"',
        6,
        23,
      ],
      ["unknown-field", unknownField("constructor"), 6, 50],
    ),
  },
  {
    name: "proto-dunder-proto",
    bad: [RULES],
    changed: ["rules"],
    expected: () => [],
    verify: onlyRules,
    check: checkFinding(
      ["unknown-field", unknownField("__proto__"), 6, 3],
      ["unknown-field", unknownField("__proto__"), 6, 22],
      ["unknown-field", unknownField("@root.__proto__.toString", "__proto__"), 6, 59],
    ),
  },
  {
    name: "proto-lookup",
    bad: [RULES],
    changed: ["rules"],
    expected: () => [],
    verify: onlyRules,
    check: checkFinding(
      [
        "unknown-field",
        `unknown field "constructor" (looked up with lookup): the template data has no field "constructor" (it has: ${FIELDS})`,
        6,
        15,
      ],
      [
        "unknown-field",
        'unknown field "__proto__" (looked up with lookup): "rules" is a list and has no field "__proto__"',
        6,
        52,
      ],
    ),
  },
  {
    name: "system-template-broken",
    bad: ["project/app/.pi/SYSTEM_TEMPLATE.md"],
    expected: (root) => [
      diag(
        "error",
        "template",
        'Block "each" is never closed: expected {{/each}}; the builtin base prompt is used instead',
        join(root, "project/app/.pi/SYSTEM_TEMPLATE.md"),
        2,
        1,
      ),
    ],
  },
];

describe("catalogue: templates", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
