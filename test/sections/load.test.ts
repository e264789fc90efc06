import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSectionsFromDir, parseSectionFile } from "../../src/sections/load.js";
import { FIXTURES, tempDir } from "../api/_helpers.js";

/** The project section folder of a `test/fixtures/sections/<scenario>`. */
const sectionsOf = (scenario: string) =>
  join(FIXTURES, "sections", scenario, "project", ".pi", "sections");

describe("loadSectionsFromDir", () => {
  it("a missing folder is no sections and no diagnostics", async () => {
    expect(await loadSectionsFromDir(join(tempDir(), "nope"), "user")).toEqual({
      sections: [],
      diagnostics: [],
    });
  });

  it("a file where the folder should be is a warning", async () => {
    const root = tempDir();
    writeFileSync(join(root, "sections"), "not a folder");
    expect(await loadSectionsFromDir(join(root, "sections"), "project")).toEqual({
      sections: [],
      diagnostics: [
        {
          level: "warning",
          code: "dir-unreadable",
          message: `cannot list folder: ENOTDIR: not a directory, scandir '${join(root, "sections")}'`,
          path: join(root, "sections"),
        },
      ],
    });
  });

  it("invalid file names (a space, a leading digit) are warnings; another extension is an info diagnostic", async () => {
    const dir = sectionsOf("invalid-names");
    expect(await loadSectionsFromDir(dir, "project")).toEqual({
      sections: [
        {
          name: "good",
          meta: { order: 65 },
          body: "A good one.\n",
          bodyLine: 4,
          source: { layer: "project", path: join(dir, "good.md") },
        },
      ],
      diagnostics: [
        {
          level: "info",
          code: "ignored-file",
          message: "ignored: only .md files directly in sections/ are read",
          path: join(dir, "notes.txt"),
        },
        {
          level: "warning",
          code: "section-name",
          message:
            '"1x.md" is not a valid section file name (^[a-z][a-z0-9_-]*$ plus .md); ignored',
          path: join(dir, "1x.md"),
        },
        {
          level: "warning",
          code: "section-name",
          message:
            '"Bad Name.md" is not a valid section file name (^[a-z][a-z0-9_-]*$ plus .md); ignored',
          path: join(dir, "Bad Name.md"),
        },
      ],
    });
  });

  it("system.md is refused: system is the custom base prompt's name", async () => {
    const dir = join(tempDir(), "sections");
    mkdirSync(dir);
    writeFileSync(join(dir, "system.md"), "You are a different agent.\n");
    expect(await loadSectionsFromDir(dir, "project")).toEqual({
      sections: [],
      diagnostics: [
        {
          level: "warning",
          code: "section-name",
          message:
            '"system" is the name of the custom base prompt, not a section; to replace the base prompt, use SYSTEM.md or SYSTEM_TEMPLATE.md beside the sections folder; ignored',
          path: join(dir, "system.md"),
        },
      ],
    });
  });

  it("frontmatter keys of the wrong type are dropped, each located at its line; the section still loads", async () => {
    const dir = sectionsOf("bad-meta-types");
    const path = join(dir, "team.md");
    const bad = (key: string, expected: string, line: number) => ({
      level: "warning",
      code: "section-meta",
      message: `frontmatter "${key}" must be ${expected}; ignored`,
      path,
      line,
    });
    expect(await loadSectionsFromDir(dir, "project")).toEqual({
      sections: [
        {
          name: "team",
          meta: { cache: "stable" },
          body: "Team notes.\n",
          bodyLine: 10,
          source: { layer: "project", path },
        },
      ],
      diagnostics: [
        bad("order", "a number", 2),
        bad("tag", "false or a tag name such as rules", 3),
        // YAML 1.2: `yes` is a string, not a boolean.
        bad("base", "true or false", 4),
        bad("enabled", "true or false", 6),
        bad("description", "a string", 7),
        {
          level: "warning",
          code: "section-meta-unknown",
          message:
            'unknown frontmatter key "colour", ignored; the keys are: order, tag, base, cache, volatile, enabled, description, maxTokens, shrink, models',
          path,
          line: 8,
        },
      ],
    });
  });

  it("bad YAML: the file is ignored with an error at the YAML's file line and column", async () => {
    const dir = sectionsOf("bad-yaml");
    expect(await loadSectionsFromDir(dir, "project")).toEqual({
      sections: [],
      diagnostics: [
        {
          level: "error",
          code: "frontmatter-yaml",
          message:
            "invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]; section file ignored",
          path: join(dir, "cwd.md"),
          line: 3,
          column: 6,
        },
      ],
    });
  });

  it("---js frontmatter is refused and never run: the marker file it would write does not appear", async () => {
    const root = tempDir();
    const dir = join(root, "sections");
    mkdirSync(dir);
    const marker = join(root, "marker.txt");
    writeFileSync(
      join(dir, "team.md"),
      `---js\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\nmodule.exports = { order: 1 };\n---\nBody.\n`,
    );
    expect(await loadSectionsFromDir(dir, "project")).toEqual({
      sections: [],
      diagnostics: [
        {
          level: "error",
          code: "frontmatter-engine",
          message:
            '"---js" frontmatter is executable code and is never run; use YAML; section file ignored',
          path: join(dir, "team.md"),
          line: 1,
          column: 1,
        },
      ],
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("CRLF and a BOM read the same as plain LF", async () => {
    const root = tempDir();
    mkdirSync(join(root, "lf"));
    mkdirSync(join(root, "crlf"));
    const text = "---\norder: 65\ntag: team_notes\n---\nLine one.\nLine two.\n";
    writeFileSync(join(root, "lf", "team.md"), text);
    writeFileSync(join(root, "crlf", "team.md"), `\uFEFF${text.replaceAll("\n", "\r\n")}`);
    const lf = await loadSectionsFromDir(join(root, "lf"), "project");
    const crlf = await loadSectionsFromDir(join(root, "crlf"), "project");
    const expected = (path: string) => ({
      sections: [
        {
          name: "team",
          meta: { order: 65, tag: "team_notes" },
          body: "Line one.\nLine two.\n",
          bodyLine: 5,
          source: { layer: "project", path },
        },
      ],
      diagnostics: [],
    });
    expect(lf).toEqual(expected(join(root, "lf", "team.md")));
    expect(crlf).toEqual(expected(join(root, "crlf", "team.md")));
  });
});

describe("parseSectionFile", () => {
  it("an empty file (no keys, blank body) loads, with a hint that it changes nothing", () => {
    const cases = [
      { text: "", body: "", bodyLine: 1 },
      { text: "  \n\n", body: "  \n\n", bodyLine: 1 },
      { text: "---\n---\n\n", body: "\n", bodyLine: 3 },
    ];
    for (const { text, body, bodyLine } of cases) {
      expect(parseSectionFile("docs", text, "/p/docs.md", "project")).toEqual({
        section: {
          name: "docs",
          meta: {},
          body,
          bodyLine,
          source: { layer: "project", path: "/p/docs.md" },
        },
        diagnostics: [
          {
            level: "info",
            code: "section-empty",
            message:
              "section file is empty and changes nothing (a blank body keeps the body below it); to switch a section off, set enabled: false",
            path: "/p/docs.md",
          },
        ],
      });
    }
  });

  it("frontmatter only is not empty: no hint", () => {
    expect(parseSectionFile("docs", "---\nenabled: false\n---\n", "/p/docs.md", "user")).toEqual({
      section: {
        name: "docs",
        meta: { enabled: false },
        body: "",
        bodyLine: 4,
        source: { layer: "user", path: "/p/docs.md" },
      },
      diagnostics: [],
    });
  });
});
