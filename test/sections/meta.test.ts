import { describe, expect, it } from "vitest";
import { parseSectionFile } from "../../src/sections/load.js";
import { defaultMeta, readSectionMeta } from "../../src/sections/meta.js";

const PATH = "/fixture/.pi/sections/team.md";

describe("readSectionMeta", () => {
  it("keeps every valid key, trimming the description", () => {
    expect(
      readSectionMeta(
        {
          order: 45,
          tag: "team_notes",
          base: true,
          volatile: true,
          enabled: false,
          description: "  Notes.  ",
        },
        PATH,
      ),
    ).toEqual({
      meta: {
        order: 45,
        tag: "team_notes",
        base: true,
        cache: "volatile",
        enabled: false,
        description: "Notes.",
      },
      diagnostics: [],
    });
  });

  it("accepts tag: false for an untagged section", () => {
    expect(readSectionMeta({ tag: false }, PATH)).toEqual({
      meta: { tag: false },
      diagnostics: [],
    });
  });

  it("drops a key of the wrong type with a warning, so the lower layer's value applies", () => {
    expect(
      readSectionMeta(
        {
          order: Number.POSITIVE_INFINITY,
          tag: "<rules>",
          enabled: "no",
          description: 3,
        },
        PATH,
      ),
    ).toEqual({
      meta: {},
      diagnostics: [
        {
          level: "warning",
          code: "section-meta",
          message: 'frontmatter "order" must be a number; ignored',
          path: PATH,
        },
        {
          level: "warning",
          code: "section-meta",
          message: 'frontmatter "tag" must be false or a tag name such as rules; ignored',
          path: PATH,
        },
        {
          level: "warning",
          code: "section-meta",
          message: 'frontmatter "enabled" must be true or false; ignored',
          path: PATH,
        },
        {
          level: "warning",
          code: "section-meta",
          message: 'frontmatter "description" must be a string; ignored',
          path: PATH,
        },
      ],
    });
  });

  it("reads cache: stable | session | volatile, and volatile: true / false as cache: volatile / stable", () => {
    for (const cache of ["stable", "session", "volatile"]) {
      expect(readSectionMeta({ cache }, PATH)).toEqual({ meta: { cache }, diagnostics: [] });
    }
    expect(readSectionMeta({ volatile: true }, PATH)).toEqual({
      meta: { cache: "volatile" },
      diagnostics: [],
    });
    expect(readSectionMeta({ volatile: false }, PATH)).toEqual({
      meta: { cache: "stable" },
      diagnostics: [],
    });
    // Agreeing spellings are fine, in either order.
    expect(readSectionMeta({ volatile: true, cache: "volatile" }, PATH)).toEqual({
      meta: { cache: "volatile" },
      diagnostics: [],
    });
  });

  it("a cache class it does not know is dropped with a located warning", () => {
    expect(
      readSectionMeta({ cache: "daily" }, PATH, { keyLines: new Map([["cache", 3]]) }),
    ).toEqual({
      meta: {},
      diagnostics: [
        {
          level: "warning",
          code: "section-meta",
          message: 'frontmatter "cache" must be stable, session or volatile; ignored',
          path: PATH,
          line: 3,
        },
      ],
    });
  });

  it("cache: and volatile: that disagree: cache wins, with a warning at the volatile key", () => {
    const keyLines = new Map([
      ["volatile", 2],
      ["cache", 3],
    ]);
    for (const data of [
      { volatile: true, cache: "session" },
      { cache: "session", volatile: true },
    ]) {
      expect(readSectionMeta(data, PATH, { keyLines })).toEqual({
        meta: { cache: "session" },
        diagnostics: [
          {
            level: "warning",
            code: "section-meta-cache",
            message:
              'frontmatter "volatile: true" disagrees with "cache: session"; cache wins (volatile: true is the old spelling of cache: volatile, remove one of them)',
            path: PATH,
            line: 2,
          },
        ],
      });
    }
  });

  it("defaults: order 1000, tagged by name, not base, cache stable, enabled", () => {
    expect(defaultMeta("team")).toEqual({
      order: 1000,
      tag: "team",
      base: false,
      cache: "stable",
      enabled: true,
      description: "",
      shrink: null,
    });
  });
});

describe("parseSectionFile", () => {
  it("splits frontmatter and body and records the file line the body starts on", () => {
    expect(parseSectionFile("team", "---\norder: 65\n---\nThe team.\n", PATH, "project")).toEqual({
      section: {
        name: "team",
        meta: { order: 65 },
        body: "The team.\n",
        bodyLine: 4,
        source: { layer: "project", path: PATH },
      },
      diagnostics: [],
    });
  });

  it("locates a bad key at its line in the file, counting the opening fence", () => {
    const text = "---\ndescription: fine\norder: soon\ntag: 7\n---\nBody.\n";
    expect(parseSectionFile("team", text, PATH, "user")).toEqual({
      section: {
        name: "team",
        meta: { description: "fine" },
        body: "Body.\n",
        bodyLine: 6,
        source: { layer: "user", path: PATH },
      },
      diagnostics: [
        {
          level: "warning",
          code: "section-meta",
          message: 'frontmatter "order" must be a number; ignored',
          path: PATH,
          line: 3,
        },
        {
          level: "warning",
          code: "section-meta",
          message: 'frontmatter "tag" must be false or a tag name such as rules; ignored',
          path: PATH,
          line: 4,
        },
      ],
    });
  });

  it("ignores the whole file when its YAML is bad, with the YAML error's file line and column", () => {
    expect(
      parseSectionFile("team", "---\norder: 1\ntag: [open\n---\nBody.\n", PATH, "project"),
    ).toEqual({
      diagnostics: [
        {
          level: "error",
          code: "frontmatter-yaml",
          message:
            "invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]; section file ignored",
          path: PATH,
          line: 3,
          column: 6,
        },
      ],
    });
  });

  it("refuses ---js frontmatter without running it", () => {
    const marker: string[] = [];
    // If the block ran, it would push to `marker` through the global below.
    (globalThis as { __syspromptMarker?: string[] }).__syspromptMarker = marker;
    const text = '---js\n{ order: (globalThis.__syspromptMarker.push("ran"), 1) }\n---\nBody.\n';
    expect(parseSectionFile("team", text, PATH, "project")).toEqual({
      diagnostics: [
        {
          level: "error",
          code: "frontmatter-engine",
          message:
            '"---js" frontmatter is executable code and is never run; use YAML; section file ignored',
          path: PATH,
          line: 1,
          column: 1,
        },
      ],
    });
    expect(marker).toEqual([]);
    delete (globalThis as { __syspromptMarker?: string[] }).__syspromptMarker;
  });

  it("reads a file without frontmatter as all body, starting on line 1", () => {
    expect(parseSectionFile("team", "Just text.\n", PATH, "project")).toEqual({
      section: {
        name: "team",
        meta: {},
        body: "Just text.\n",
        bodyLine: 1,
        source: { layer: "project", path: PATH },
      },
      diagnostics: [],
    });
  });
});
