import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// Cache classes in section files: a class nobody knows, two spellings that
// disagree, and a stable section ordered among the session ones.

const NOTES = "project/app/.pi/sections/notes.md";

const cases: CatalogueCase[] = [
  {
    name: "cache-class-unknown",
    layout: [[NOTES, "---\norder: 76\ncache: daily\n---\nNotes for the team.\n"]],
    changed: ["notes"],
    expected: (root) => [
      diag(
        "warning",
        "section-meta",
        'frontmatter "cache" must be stable, session or volatile; ignored',
        join(root, NOTES),
        3,
      ),
    ],
    check: (root) => [
      diag(
        "warning",
        "section-meta",
        'frontmatter "cache" must be stable, session or volatile; ignored',
        join(root, NOTES),
        3,
      ),
    ],
    verify: (bad: Rendered) => {
      // The default applies: stable, with the other stable sections.
      expect(bad.result.blocks[0]?.sections).toContain("notes");
    },
  },
  {
    name: "cache-and-volatile-disagree",
    layout: [[NOTES, "---\nvolatile: true\ncache: session\n---\nNotes for the team.\n"]],
    changed: ["notes"],
    expected: (root) => [
      diag(
        "warning",
        "section-meta-cache",
        'frontmatter "volatile: true" disagrees with "cache: session"; cache wins (volatile: true is the old spelling of cache: volatile, remove one of them)',
        join(root, NOTES),
        2,
      ),
    ],
    check: (root) => [
      diag(
        "warning",
        "section-meta-cache",
        'frontmatter "volatile: true" disagrees with "cache: session"; cache wins (volatile: true is the old spelling of cache: volatile, remove one of them)',
        join(root, NOTES),
        2,
      ),
    ],
    verify: (bad: Rendered) => {
      expect(bad.result.blocks.find((b) => b.cache === "session")?.sections).toContain("notes");
    },
  },
  {
    name: "stable-ordered-after-session",
    layout: [[NOTES, "---\norder: 155\n---\nNotes for the team.\n"]],
    changed: ["notes"],
    expected: () => [],
    check: (root) => [
      diag(
        "info",
        "section-order-class",
        'section "notes" is stable but its order 155 comes after the session section "dir_context" (150); stable sections go before every session one, so it is placed before "environment", where a change of the workspace or the date leaves it in the cached prefix. Give it an order below 140 so the file says where it is, or cache: session if its text changes with the workspace',
        join(root, NOTES),
      ),
    ],
    verify: (bad: Rendered) => {
      const names = bad.result.sections.map((s) => s.name);
      expect(names.indexOf("notes")).toBeLessThan(names.indexOf("environment"));
    },
  },
  {
    // The file says stable, the text changes every day and with the tree: the
    // prompt would count it in the cached prefix. check names what it reads.
    name: "stable-reads-session-data",
    layout: [
      [
        NOTES,
        '---\norder: 76\n---\nNotes of {{date}} on {{#if git}}{{git.branch}}{{/if}} ({{#when agentName "==" "roots"}}x{{/when}}).\n',
      ],
    ],
    changed: ["notes"],
    expected: () => [],
    check: (root) => [
      diag(
        "info",
        "section-cache-data",
        'section "notes" is stable but reads "date", "git", which change with the session or the workspace: its text then changes inside the prefix counted as cached (explain\'s cache-stable prefix, the anthropic format\'s breakpoints). Give it cache: session, or leave those fields to a session section',
        join(root, NOTES),
      ),
    ],
  },
];

describe("catalogue: cache classes", () => {
  for (const c of cases) it(c.name, () => runCase(c));
});
