import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// Hostile and broken YAML frontmatter in a project override of `rules`. A
// block that cannot be read makes the file ignored (the builtin version
// renders, so the prompt is the clean one); a block that reads with warnings
// keeps the file, and the values that are wrong are left out. Nothing in a
// block is ever run, and an alias bomb stops at yaml's alias limit. Fixtures:
// test/fixtures/catalogue/<case>/.

const RULES = "project/app/.pi/sections/rules.md";

/** One diagnostic about `rules.md`. */
const rulesDiag =
  (level: "error" | "warning", code: string, message: string, line: number, column: number) =>
  (root: string) => [diag(level, code, message, join(root, RULES), line, column)];

/** The file was read: `rules` is the project's, with the builtin's text (same body). */
const projectRules = (bad: Rendered, clean: Rendered, root: string): void => {
  const cleanRules = clean.result.sections.find((s) => s.name === "rules");
  expect(bad.result.sections.find((s) => s.name === "rules")).toEqual({
    ...cleanRules,
    source: { layer: "project", path: join(root, RULES) },
  });
};

const IGNORED = "section file ignored";

const cases: CatalogueCase[] = [
  {
    name: "yaml-syntax-error",
    bad: [RULES],
    expected: rulesDiag(
      "error",
      "frontmatter-yaml",
      `invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]; ${IGNORED}`,
      2,
      8,
    ),
  },
  {
    // Nine levels of nine aliases: 387 million nodes if it were expanded.
    name: "yaml-alias-bomb",
    bad: [RULES],
    expected: rulesDiag(
      "error",
      "frontmatter-yaml",
      `invalid YAML frontmatter: Excessive alias count indicates a resource exhaustion attack; ${IGNORED}`,
      2,
      1,
    ),
  },
  {
    name: "yaml-js-engine",
    bad: [RULES],
    expected: rulesDiag(
      "error",
      "frontmatter-engine",
      `"---js" frontmatter is executable code and is never run; use YAML; ${IGNORED}`,
      1,
      1,
    ),
  },
  {
    name: "yaml-tab-indent",
    bad: [RULES],
    expected: rulesDiag(
      "error",
      "frontmatter-yaml",
      `invalid YAML frontmatter: Block scalar values in collections must be indented; ${IGNORED}`,
      4,
      1,
    ),
  },
  {
    name: "yaml-duplicate-key",
    bad: [RULES],
    expected: rulesDiag(
      "error",
      "frontmatter-yaml",
      `invalid YAML frontmatter: key "order" appears twice; ${IGNORED}`,
      4,
      1,
    ),
  },
  {
    name: "yaml-not-mapping",
    bad: [RULES],
    expected: rulesDiag(
      "error",
      "frontmatter-not-mapping",
      `frontmatter must be a YAML mapping of keys to values; ${IGNORED}`,
      2,
      1,
    ),
  },
  {
    name: "yaml-unclosed",
    bad: [RULES],
    expected: rulesDiag(
      "warning",
      "frontmatter-unclosed",
      `frontmatter starts with --- but has no closing --- line; ${IGNORED}`,
      1,
      1,
    ),
  },
  {
    // 500 keys of 60 characters: 35 KB, over the 32 KB that is ever parsed.
    name: "yaml-too-large",
    bad: [RULES],
    expected: rulesDiag(
      "error",
      "frontmatter-too-large",
      `frontmatter is 35 KB, over the 32 KB limit; not read; ${IGNORED}`,
      1,
      1,
    ),
  },
  {
    name: "yaml-custom-tag",
    bad: [RULES],
    changed: ["rules"],
    expected: (root) => [
      diag(
        "warning",
        "frontmatter-yaml-warning",
        "YAML frontmatter: Unresolved tag: tag:yaml.org,2002:js/function; the tag is ignored",
        join(root, RULES),
        2,
        8,
      ),
      diag(
        "warning",
        "section-meta",
        'frontmatter "order" must be a number; ignored',
        join(root, RULES),
        2,
      ),
    ],
    verify: projectRules,
  },
  {
    // `__proto__: {enabled: false}` must not switch the section off through the prototype.
    name: "yaml-prototype-keys",
    bad: [RULES],
    changed: ["rules"],
    expected: (root) =>
      [
        ["__proto__", 2],
        ["constructor", 4],
      ].map(([key, line]) =>
        diag(
          "warning",
          "section-meta-unknown",
          `unknown frontmatter key "${key}", ignored; the keys are: order, tag, base, cache, volatile, enabled, description, maxTokens, shrink, models`,
          join(root, RULES),
          line as number,
        ),
      ),
    verify: projectRules,
  },
];

describe("catalogue: frontmatter", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
