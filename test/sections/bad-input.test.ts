import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import type { RenderedSection } from "../../src/types.js";
import {
  builtinSection,
  copyScenario,
  cwdSection,
  DATE_SECTION,
  DEFAULT_RULES_SECTION,
  DEFAULT_TOOLS_SECTION,
  ENVIRONMENT_SECTION,
  PREAMBLE,
  pinned,
  tempDir,
} from "../api/_helpers.js";

// Bad user files never break the render: the lower layer's version (here the
// builtin one) renders and a diagnostic says where the problem is.

const at = (name: string, text: string): RenderedSection => ({
  name,
  text,
  source: { layer: "builtin", path: builtinSection(name) },
});

/** The whole builtin prompt's sections for a cwd. */
const builtinSections = (cwd: string) => [
  at("preamble", PREAMBLE),
  at("tools", DEFAULT_TOOLS_SECTION),
  at("rules", DEFAULT_RULES_SECTION),
  at("cwd", cwdSection(cwd)),
  at("environment", ENVIRONMENT_SECTION),
  at("date", DATE_SECTION),
];

async function renderBad(scenario: string) {
  const root = copyScenario("sections", scenario);
  const cwd = join(root, "project");
  const result = await renderSystemPrompt(pinned(root, { noContextFiles: true }));
  return { result, cwd, sectionsDir: join(cwd, ".pi", "sections") };
}

describe("bad section files in the project layer", () => {
  it("an unclosed block: the builtin version renders; file line (counting frontmatter) and column of the opener", async () => {
    const { result, cwd, sectionsDir } = await renderBad("override-unclosed-block");
    expect(result.sections).toEqual(builtinSections(cwd));
    expect(result.diagnostics).toEqual([
      {
        level: "error",
        code: "template",
        // The message's "line 2" counts from the body; `line` is the file line.
        message:
          'Block "if" is never closed: expected {{/if}}; the builtin version is used instead',
        path: join(sectionsDir, "rules.md"),
        line: 5,
        column: 1,
      },
    ]);
  });

  it("a failed override falls back to the builtin version whole: its tag and order, not the override's", async () => {
    const { result, cwd, sectionsDir } = await renderBad("override-broken-keeps-lower-meta");
    // The override says `tag: myrules` and `order: 5`; neither may outlive its failure.
    expect(result.sections).toEqual(builtinSections(cwd));
    expect(result.diagnostics).toEqual([
      {
        level: "error",
        code: "template",
        message:
          'Block "each" is never closed: expected {{/each}}; the builtin version is used instead',
        path: join(sectionsDir, "rules.md"),
        line: 6,
        column: 1,
      },
    ]);
  });

  it("a broken user file reached through {{> base}} and through the fallback is reported once", async () => {
    const { result, cwd, sectionsDir } = await renderBad("base-and-fallback-reach-broken-file");
    const root = join(cwd, "..");
    expect(result.sections).toEqual(builtinSections(cwd));
    expect(result.diagnostics).toEqual([
      {
        level: "error",
        code: "template",
        message:
          'Block "if" is never closed: expected {{/if}}; the builtin version is used instead',
        path: join(root, "agent", "sections", "cwd.md"),
        line: 4,
        column: 12,
      },
      {
        level: "error",
        code: "template",
        message: 'Partial "missing" not found; the user version is used instead',
        path: join(sectionsDir, "cwd.md"),
        line: 5,
        column: 15,
      },
    ]);
  });

  it("a partial that does not exist: the builtin version renders; the diagnostic points at {{> nope}}", async () => {
    const { result, cwd, sectionsDir } = await renderBad("override-bad-partial");
    expect(result.sections).toEqual(builtinSections(cwd));
    expect(result.diagnostics).toEqual([
      {
        level: "error",
        code: "template",
        message: 'Partial "nope" not found; the builtin version is used instead',
        path: join(sectionsDir, "tools.md"),
        line: 6,
        column: 3,
      },
    ]);
  });

  it("bad frontmatter YAML: the file is ignored, with the YAML's line and column", async () => {
    const { result, cwd, sectionsDir } = await renderBad("bad-yaml");
    expect(result.sections).toEqual(builtinSections(cwd));
    expect(result.diagnostics).toEqual([
      {
        level: "error",
        code: "frontmatter-yaml",
        message:
          "invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]; section file ignored",
        path: join(sectionsDir, "cwd.md"),
        line: 3,
        column: 6,
      },
    ]);
  });

  it("invalid file names are diagnostics; the valid file beside them still loads", async () => {
    const { result, cwd, sectionsDir } = await renderBad("invalid-names");
    const builtin = builtinSections(cwd);
    expect(result.sections).toEqual([
      ...builtin.slice(0, 3),
      {
        name: "good",
        text: "<good>\nA good one.\n</good>",
        source: { layer: "project", path: join(sectionsDir, "good.md") },
      },
      ...builtin.slice(3),
    ]);
    expect(result.diagnostics).toEqual([
      {
        level: "info",
        code: "ignored-file",
        message: "ignored: only .md files directly in sections/ are read",
        path: join(sectionsDir, "notes.txt"),
      },
      {
        level: "warning",
        code: "section-name",
        message: '"1x.md" is not a valid section file name (^[a-z][a-z0-9_-]*$ plus .md); ignored',
        path: join(sectionsDir, "1x.md"),
      },
      {
        level: "warning",
        code: "section-name",
        message:
          '"Bad Name.md" is not a valid section file name (^[a-z][a-z0-9_-]*$ plus .md); ignored',
        path: join(sectionsDir, "Bad Name.md"),
      },
    ]);
  });

  it("---js frontmatter in an override: refused, never run (no marker file), the builtin version renders", async () => {
    const root = tempDir();
    const sectionsDir = join(root, "project", ".pi", "sections");
    mkdirSync(sectionsDir, { recursive: true });
    const marker = join(root, "marker.txt");
    writeFileSync(
      join(sectionsDir, "tools.md"),
      `---js\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n({ order: 1 })\n---\nHijacked tools.\n`,
    );
    const result = await renderSystemPrompt(pinned(root, { noContextFiles: true }));
    expect(existsSync(marker)).toBe(false);
    expect(result.sections).toEqual(builtinSections(join(root, "project")));
    expect(result.diagnostics).toEqual([
      {
        level: "error",
        code: "frontmatter-engine",
        message:
          '"---js" frontmatter is executable code and is never run; use YAML; section file ignored',
        path: join(sectionsDir, "tools.md"),
        line: 1,
        column: 1,
      },
    ]);
  });

  it("all of it at once, in user and project layers, still renders the builtin prompt", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "a.md": "{{#each}}",
      "b.md": "---\n: : :\n---\nx",
      "c.md": "---\norder: 1\nno closing fence\n",
      "d.md": "{{> base}}{{> base}}{{#if}}{{/each}}",
      "tools.md": "{{#list tools}}{{/if}}",
      "rules.md": "{{lookup . 'constructor'}}{{log 'hi'}}",
      "cwd.md": "---coffee\nrequire('fs')\n---\n",
      "date.md": "\u0000\u0001binary",
    };
    for (const dir of [join(root, "agent", "sections"), join(root, "project", ".pi", "sections")]) {
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    }
    const result = await renderSystemPrompt(pinned(root, { noContextFiles: true }));
    expect(result.sections).toEqual(builtinSections(join(root, "project")));
    // Every problem is reported once per file, located; render never threw.
    // (Frontmatter problems come from loading; template problems from render, in section order.)
    // (Your sections the project's of the same name replace are said too, test/catalogue/hostile-project-takes-your-place.test.ts.)
    expect(
      result.diagnostics
        .filter((d) => d.code !== "user-text-left-out")
        .map((d) => [d.code, d.path?.slice(root.length + 1), d.line, d.column]),
    ).toEqual([
      ["frontmatter-yaml", "agent/sections/b.md", 2, 3],
      ["frontmatter-unclosed", "agent/sections/c.md", 1, 1],
      ["frontmatter-engine", "agent/sections/cwd.md", 1, 1],
      ["file-binary", "agent/sections/date.md", undefined, undefined],
      ["frontmatter-yaml", "project/.pi/sections/b.md", 2, 3],
      ["frontmatter-unclosed", "project/.pi/sections/c.md", 1, 1],
      ["frontmatter-engine", "project/.pi/sections/cwd.md", 1, 1],
      ["file-binary", "project/.pi/sections/date.md", undefined, undefined],
      ["template", "project/.pi/sections/tools.md", 1, 4],
      ["template", "agent/sections/tools.md", 1, 4],
      ["template", "project/.pi/sections/rules.md", 1, 27],
      ["template", "agent/sections/rules.md", 1, 27],
      ["template", "project/.pi/sections/a.md", 1, 1],
      ["template", "agent/sections/a.md", 1, 1],
      ["template", "project/.pi/sections/d.md", 1, 24],
      ["template", "agent/sections/d.md", 1, 24],
    ]);
  });
});
