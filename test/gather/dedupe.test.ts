import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listItems, splitParagraphs } from "../../src/gather/_markdown.js";
import { dedupeWithDropped } from "../../src/gather/context/dedupe.js";
import { dedupeContextFiles, loadContextFiles } from "../../src/index.js";
import { copyScenario, tempDir } from "../api/_helpers.js";

const file = (path: string, content: string) => ({ path, content });
const dropped = (path: string, by: string) => ({
  level: "info",
  code: "context-duplicate",
  message: `not loaded: every paragraph of it is already stated in ${by}`,
  path,
});

describe("splitParagraphs", () => {
  it("splits at blank lines (spaces count as blank), trims each, leaves out empty ones", () => {
    expect(splitParagraphs("\n\n  one\ntwo  \n \t\nthree\n\n\n")).toEqual(["one\ntwo", "three"]);
  });

  it("never splits inside a fenced block; an unclosed fence runs to the end", () => {
    expect(splitParagraphs("a\n```\nx\n\ny\n```\n\nb\n~~~\n\nc")).toEqual([
      "a\n```\nx\n\ny\n```",
      "b\n~~~\n\nc",
    ]);
  });
});

describe("listItems", () => {
  it("bullets and numbers, with continuation lines; not inside fences", () => {
    expect(
      listItems(
        "- one\n  still one\n* two\n+ three\n1. four\n12) five\n# heading\n-not an item\n```\n- fenced\n```",
      ),
    ).toEqual(["one still one", "two", "three", "four", "five"]);
  });
});

describe("dedupeContextFiles", () => {
  it("drops a farther file every paragraph of which a nearer file states", () => {
    const files = [
      file("/a/AGENTS.md", "Use pnpm.\n\nRun the tests."),
      file("/a/b/AGENTS.md", "# B\n\nUse pnpm.\n\n  Run the tests.  \n\nAlso lint."),
    ];
    expect(dedupeContextFiles(files)).toEqual({
      files: [files[1]],
      diagnostics: [dropped("/a/AGENTS.md", "/a/b/AGENTS.md")],
    });
  });

  it("order does not matter: a file whose paragraphs nearer files state, scattered, goes", () => {
    const files = [
      file("/1", "P.\n\nQ."),
      file("/2", "P.\n\nX.\n\nQ."),
      file("/3", "Q.\n\nP."),
      file("/4", "P."),
    ];
    // Nearest first: /4 states P, /3 adds Q; /2 keeps X (and P, Q: a marker would be longer);
    // /1 has nothing of its own.
    expect(dedupeContextFiles(files)).toEqual({
      files: [files[1], files[2], files[3]],
      diagnostics: [dropped("/1", "/4, /3")],
    });
  });

  it("identical files: the farther one goes; empty files are never dropped", () => {
    const files = [file("/e1", ""), file("/x", "Same.\n"), file("/y", "Same."), file("/e2", " \n")];
    expect(dedupeContextFiles(files)).toEqual({
      files: [files[0], files[2], files[3]],
      diagnostics: [dropped("/x", "/y")],
    });
  });

  it("a chain names the nearest file that states them", () => {
    const files = [file("/a", "A."), file("/b", "A.\n\nB."), file("/c", "A.\n\nB.\n\nC.")];
    expect(dedupeContextFiles(files)).toEqual({
      files: [files[2]],
      diagnostics: [dropped("/a", "/c"), dropped("/b", "/c")],
    });
  });

  it("a fenced block with blank lines is one paragraph", () => {
    const fenced = "```\nx\n\ny\n```";
    expect(dedupeContextFiles([file("/a", "x"), file("/b", fenced)]).files).toHaveLength(2);
    expect(dedupeContextFiles([file("/a", fenced), file("/b", `Intro.\n\n${fenced}`)])).toEqual({
      files: [file("/b", `Intro.\n\n${fenced}`)],
      diagnostics: [dropped("/a", "/b")],
    });
  });

  it("a file that repeats some paragraphs keeps its own, with a marker where the others stood", () => {
    const shared =
      "Always run the whole test suite before you push a branch, and fix what fails before asking for review.";
    const files = [
      file("/r/AGENTS.md", `# Root\n\nRoot only, kept as it is.\n\n${shared}\n\n## Style\n\nTabs.`),
      file("/r/p/AGENTS.md", `# Package\n\n${shared}`),
    ];
    expect(dedupeWithDropped(files)).toEqual({
      files: [
        file(
          "/r/AGENTS.md",
          "# Root\n\nRoot only, kept as it is.\n\n[1 paragraph left out here: already stated in /r/p/AGENTS.md]\n\n## Style\n\nTabs.",
        ),
        files[1],
      ],
      diagnostics: [
        {
          level: "info",
          code: "context-paragraphs-left-out",
          message: "1 paragraph left out, with a marker line: already stated in /r/p/AGENTS.md",
          path: "/r/AGENTS.md",
        },
      ],
      dropped: [],
      trimmed: [{ path: "/r/AGENTS.md", left: 1, statedIn: ["/r/p/AGENTS.md"] }],
    });
  });

  it("the user's file outranks the repository's: the repository's copy of its paragraph goes", () => {
    const pref =
      "Answer in British English, keep commit messages short, and never amend a commit that was pushed.";
    const files = [
      { path: "/home/AGENTS.md", content: pref, origin: "user" as const },
      { path: "/r/AGENTS.md", content: `${pref}\n\nUse the Makefile.`, origin: "project" as const },
    ];
    expect(dedupeContextFiles(files).files).toEqual([
      files[0],
      {
        ...files[1],
        content:
          "[1 paragraph left out here: already stated in /home/AGENTS.md]\n\nUse the Makefile.",
      },
    ]);
  });
});

describe("loadContextFiles applies dedupe after imports", () => {
  it("a subfolder copy of the root's file drops the root's; an import that repeats it too", async () => {
    const root = copyScenario("context", "dedupe-copied-down");
    const p = `${root}/project`;
    // The project root, so pkg/AGENTS.md may import from its parent folder.
    mkdirSync(join(p, ".git"));
    expect(
      await loadContextFiles({
        cwd: join(p, "pkg"),
        agentDir: join(root, "agent"),
        home: join(root, "home"),
      }),
    ).toEqual({
      files: [
        {
          path: `${p}/pkg/AGENTS.md`,
          origin: "project",
          content:
            "# Package\n\nUse pnpm, not npm.\n\nRun `pnpm test` before committing.\n\nThis package is ESM only.",
        },
      ],
      diagnostics: [dropped(`${p}/AGENTS.md`, `${p}/pkg/AGENTS.md`)],
    });
  });

  it("nothing is dropped when each file adds something of its own", async () => {
    const root = tempDir();
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "AGENTS.md"), "Root rule.\n\nShared.");
    writeFileSync(join(root, "sub", "AGENTS.md"), "Shared.\n\nSub rule.");
    const result = await loadContextFiles({ cwd: join(root, "sub"), agentDir: join(root, "a") });
    expect(result.files.map((f) => f.path)).toEqual([`${root}/AGENTS.md`, `${root}/sub/AGENTS.md`]);
    expect(result.diagnostics).toEqual([]);
  });
});
