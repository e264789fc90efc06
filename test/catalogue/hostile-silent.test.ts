import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// Mistakes that used to pass in silence: a misspelled frontmatter key is
// ignored, and what it meant to set does not happen. Each is a warning (so
// `check --strict` fails) naming the key it is likely a typo of.

const NOTES = "project/app/.pi/sections/notes.md";
const BETA = "project/app/.pi/skills/beta/SKILL.md";
const FIX = "project/app/.pi/prompts/fix.md";

const cases: CatalogueCase[] = [
  {
    // `enabeld: false` meant the section off; it stays on, and says why.
    name: "section-key-typo",
    layout: [[NOTES, "---\norder: 76\nenabeld: false\n---\nNotes for the team.\n"]],
    changed: ["notes"],
    expected: (root) => [
      diag(
        "warning",
        "section-meta-unknown",
        'unknown frontmatter key "enabeld", ignored; did you mean "enabled"?',
        join(root, NOTES),
        3,
      ),
    ],
    check: (root) => [
      diag(
        "warning",
        "section-meta-unknown",
        'unknown frontmatter key "enabeld", ignored; did you mean "enabled"?',
        join(root, NOTES),
        3,
      ),
    ],
    verify: (bad: Rendered) => {
      expect(bad.result.sections.find((s) => s.name === "notes")?.text).toBe(
        "<notes>\nNotes for the team.\n</notes>",
      );
    },
  },
  {
    // A key far from every known one still says which keys there are.
    name: "section-key-unknown",
    layout: [[NOTES, "---\ncolour: red\n---\nNotes for the team.\n"]],
    changed: ["notes"],
    expected: (root) => [
      diag(
        "warning",
        "section-meta-unknown",
        'unknown frontmatter key "colour", ignored; the keys are: order, tag, base, cache, volatile, enabled, description, maxTokens, shrink, models',
        join(root, NOTES),
        2,
      ),
    ],
  },
  {
    // A key with a terminal escape in it is quoted as JSON, still at its line.
    name: "section-key-control-characters",
    layout: [[NOTES, '---\n"enabl\\u001bd": false\n---\nNotes for the team.\n']],
    changed: ["notes"],
    expected: (root) => [
      diag(
        "warning",
        "section-meta-unknown",
        'unknown frontmatter key "enabl\\u001bd", ignored; did you mean "enabled"?',
        join(root, NOTES),
        2,
      ),
    ],
  },
  {
    // `disable-model-invocaton: true` meant the skill hidden; it is listed, and says why.
    // `when_to_use` is another agent's key, far from ours: not reported.
    name: "skill-key-typo",
    layout: [
      [
        BETA,
        "---\nname: beta\ndescription: Beta steps.\ndisable-model-invocaton: true\nwhen_to_use: always\n---\nDo beta.\n",
      ],
    ],
    changed: ["skills"],
    expected: (root) => [
      diag(
        "warning",
        "skill-key-unknown",
        'unknown frontmatter key "disable-model-invocaton", ignored; did you mean "disable-model-invocation"?',
        join(root, BETA),
        4,
      ),
    ],
  },
  {
    // A render reads no slash-command templates; check (and list, expand) do.
    name: "prompt-template-key-typo",
    layout: [[FIX, "---\ndescripton: Fix a failing test\n---\nFix $1.\n"]],
    expected: () => [],
    check: (root) => [
      diag(
        "warning",
        "template-key-unknown",
        'unknown frontmatter key "descripton", ignored; did you mean "description"?',
        join(root, FIX),
        2,
      ),
    ],
  },
];

describe("catalogue: mistakes that pass in silence", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
