import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffSections } from "../../src/diff.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { openPromptSession, type SessionOverrides } from "../../src/session/session.js";
import type { RenderResult } from "../../src/types.js";
import {
  comparable,
  link,
  projectOptions,
  remove,
  sessionProject,
  TRUST_EVERY_STAT,
  write,
} from "./_project.js";

/** Files an edit may write or delete, by what they are to the prompt. */
const PATHS = {
  context: [
    "project/AGENTS.md",
    "project/CLAUDE.md",
    "AGENTS.md", // above the project root
    "agent/AGENTS.md",
    "project/src/AGENTS.md", // below cwd: dir_context
  ],
  imported: ["project/docs/style.md", "project/docs/other.md"],
  section: [
    "project/.pi/sections/rules.md",
    "project/.pi/sections/house.md",
    "agent/sections/rules.md",
    "project/.pi/partials/note.md",
    "project/.pi/APPEND_SYSTEM.md",
    "project/.pi/SYSTEM.md",
  ],
  skill: [
    "project/.pi/skills/pdf/SKILL.md",
    "project/.pi/skills/csv/SKILL.md",
    "agent/skills/notes/SKILL.md",
  ],
  tree: ["project/src/index.ts", "project/src/util/b.ts", "project/lib/c.ts"],
  // A link that context files import: retargeting it changes what they pull in.
  link: ["project/docs/current.md"],
};

const TEXTS = {
  context: [
    "# Project\n\nRun `npm test` first.\n\n@docs/style.md\n",
    "Imports two: @docs/style.md and @docs/other.md\n",
    "Imports the link: @docs/current.md\n",
    "Plain words, no imports.\n",
    "",
  ],
  imported: ["Indent with two spaces.\n", "Tabs.\n\n@other.md\n", "x".repeat(300)],
  section: [
    "{{> base}}\n- Keep commits small.\n",
    "---\norder: 15\n---\nHouse rules {{> note}}.\n",
    "---\nenabled: false\n---\n",
    "{{#if}}broken\n",
    "Note: {{agentName}}.\n",
  ],
  skill: [
    "---\nname: pdf\ndescription: Read tables out of PDF files.\n---\nBody.\n",
    "---\nname: csv\ndescription: Clean CSV files.\n---\n",
    "---\ndescription: no name, so the folder's\n---\n",
    "---\nname: pdf\ndescription: A second pdf skill.\n---\n",
    "not a skill: no frontmatter\n",
  ],
  tree: ["export {};\n", "export const big = 1;\n".repeat(50)],
  link: ["-> style.md", "-> other.md", "-> missing.md"],
};

type Kind = keyof typeof PATHS;

/** One step: an edit (text, or null to delete), or none; then a render with these overrides. */
const action = fc.record({
  edit: fc.option(
    fc.constantFrom(...(Object.keys(PATHS) as Kind[])).chain((kind) =>
      fc.record({
        path: fc.constantFrom(...PATHS[kind]),
        text: fc.option(fc.constantFrom(...TEXTS[kind]), { freq: 3 }),
      }),
    ),
    { freq: 6 },
  ),
  overrides: fc.constantFrom<SessionOverrides>(
    {},
    {},
    {},
    { workspaceTree: false },
    { tools: ["edit", "write"] },
    { model: "model-b" },
    // A host that read SYSTEM.md / APPEND_SYSTEM.md itself: the layers read less.
    { resolvedSystemPrompt: "Host base prompt.", resolvedAppendPrompt: "Host addendum." },
    { treeMtime: "2026-01-01T00:00:00Z" },
  ),
});

describe("createPromptSession: a render equals renderSystemPrompt, whatever was edited", () => {
  it("over random sequences of writes and deletes of context files, imports, sections, skills and tree files", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 8 }), async (actions) => {
        const { root } = sessionProject();
        const options = projectOptions(root, { workspaceTree: true });
        const session = openPromptSession(options, TRUST_EVERY_STAT);
        let before: RenderResult | undefined;
        try {
          for (const { edit, overrides } of actions) {
            if (edit) {
              if (edit.text === null) remove(root, edit.path);
              else if (edit.text.startsWith("-> ")) link(root, edit.path, edit.text.slice(3));
              else write(root, edit.path, edit.text);
            }
            const { result, changes } = await session.render(overrides);
            const fresh = await renderSystemPrompt({ ...options, ...overrides });
            expect(comparable(result)).toEqual(comparable(fresh));
            expect(changes).toEqual(before && diffSections(before.sections, fresh.sections));
            before = fresh;
          }
        } finally {
          session.close();
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
