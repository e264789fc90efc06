import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles, renderSystemPrompt, SyspromptError } from "../../src/index.js";
import { copyScenario, pinned, tempDir } from "../api/_helpers.js";
import { contextSection } from "./_context-section.js";
import { cpuTimed } from "./_timed.js";

// Scenarios with plain files live in test/fixtures/context/<behaviour>/; FIFOs,
// links and the large files are made at test time in a temp folder.

/** Loads the context files of `<root>/project` with the agent dir and home inside `root`. */
const load = (root: string, extra: { maxBytes?: number; cwd?: string } = {}) =>
  loadContextFiles({
    cwd: extra.cwd ?? join(root, "project"),
    agentDir: join(root, "agent"),
    home: join(root, "home"),
    ...(extra.maxBytes !== undefined ? { maxBytes: extra.maxBytes } : {}),
  });

describe("@imports", () => {
  it("expands imports in place, recursively, relative to the importing file; not in code or comments", async () => {
    const root = copyScenario("context", "imports-expand");
    const p = `${root}/project`;
    expect(await load(root)).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          origin: "project",
          content: [
            "# Project",
            "",
            "Style: Use two spaces.",
            "Names: Names are camelCase.",
            "Testing: Run npm test before you commit..",
            "",
            "```sh",
            "npm test @./docs/testing.md",
            "```",
            "",
            "Inline `@./docs/testing.md` and <!-- @./docs/testing.md --> stay as written.",
            "Mail dev@example.com; clone git@github.com:org/repo.",
          ].join("\n"),
        },
      ],
      diagnostics: [],
    });
  });

  it("a cycle or a repeat keeps the literal token, with an info", async () => {
    const root = copyScenario("context", "imports-cycle-and-repeat");
    const p = `${root}/project`;
    const repeat = (path: string, written: string, real: string, line: number, column: number) => ({
      level: "info",
      code: "import-repeat",
      message: `${written}: ${real} is already part of this context file (a cycle or a repeat); left as written`,
      path,
      line,
      column,
    });
    expect(await load(root)).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          origin: "project",
          content: "A, then B, then back to @./a.md and to @./AGENTS.md\n\nAgain: @./a.md",
        },
      ],
      diagnostics: [
        repeat(`${p}/b.md`, "@./a.md", `${p}/a.md`, 1, 17),
        repeat(`${p}/b.md`, "@./AGENTS.md", `${p}/AGENTS.md`, 1, 32),
        repeat(`${p}/AGENTS.md`, "@./a.md", `${p}/a.md`, 3, 8),
      ],
    });
  });

  it("a missing target keeps the literal token: a warning for a path, an info for a bare word", async () => {
    const root = copyScenario("context", "imports-missing");
    const p = `${root}/project`;
    expect(await load(root)).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          content: "See @./docs/nope.md and ask @alice.",
          origin: "project",
        },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "import-missing",
          message: `@./docs/nope.md: no file at ${p}/docs/nope.md; left as written`,
          path: `${p}/AGENTS.md`,
          line: 1,
          column: 5,
        },
        {
          level: "info",
          code: "import-missing",
          message: `@alice: no file at ${p}/alice; left as written`,
          path: `${p}/AGENTS.md`,
          line: 1,
          column: 29,
        },
      ],
    });
  });

  it("five levels deep; the fifth level's own imports stay as written", async () => {
    const root = copyScenario("context", "imports-depth-limit");
    const p = `${root}/project`;
    expect(await load(root)).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          origin: "project",
          content: "zero level 1 level 2 level 3 level 4 level 5 @./d6.md",
        },
      ],
      diagnostics: [
        {
          level: "info",
          code: "import-depth",
          message: "imports are followed 5 levels deep; the import in this file is left as written",
          path: `${p}/d5.md`,
          line: 1,
          column: 9,
        },
      ],
    });
  });
});

describe("@imports are bounded per context file", () => {
  it("after 100 imports the rest stay as written, with one info", async () => {
    const root = tempDir();
    const p = join(root, "project");
    mkdirSync(p);
    const names = Array.from({ length: 105 }, (_, i) => `f${i}`);
    for (const name of names) writeFileSync(join(p, `${name}.md`), name.toUpperCase());
    writeFileSync(join(p, "AGENTS.md"), names.map((n) => `@./${n}.md`).join(" "));
    const result = await load(root);
    expect(result).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          origin: "project",
          content: [
            ...names.slice(0, 100).map((n) => n.toUpperCase()),
            ...names.slice(100).map((n) => `@./${n}.md`),
          ].join(" "),
        },
      ],
      diagnostics: [
        {
          level: "info",
          code: "import-limit",
          message: "more than 100 imports in one context file; the rest are left as written",
          path: `${p}/AGENTS.md`,
          line: 1,
          // The 101st token: after 10 of "@./fN.md " (9 characters) and 90 of "@./fNN.md " (10).
          column: 10 * 9 + 90 * 10 + 1,
        },
      ],
    });
  });
});

describe("@imports are confined", () => {
  /** `<root>/project` (a git checkout, cwd), `<root>/outside.md`, `<root>/home/notes.md`, `<root>/agent`. */
  function layout() {
    const root = tempDir();
    const p = join(root, "project");
    mkdirSync(join(p, ".git"), { recursive: true });
    mkdirSync(join(root, "home"));
    mkdirSync(join(root, "agent"));
    writeFileSync(join(root, "outside.md"), "SECRET outside the project");
    writeFileSync(join(root, "home", "notes.md"), "The user's notes.");
    return { root, p };
  }
  // A project file's import is refused in the door's words; a user file's keeps its own.
  const outside = (path: string, written: string, where: string, allowed: string, line = 1) => ({
    level: "warning",
    code: "import-outside",
    message: allowed.startsWith("the project root ")
      ? `${written}: not imported: it resolves to ${where}, outside ${allowed}; left as written`
      : `${written} leads to ${where}, outside ${allowed}; left as written`,
    path,
    line,
    column: 1,
  });

  it("a project file's imports stay inside the project root: .., absolute, ~/ and links out are refused", async () => {
    const { root, p } = layout();
    symlinkSync("../outside.md", join(p, "link.md"));
    mkdirSync(join(p, "sub"));
    writeFileSync(join(p, "sub", "inner.md"), "Inside, one folder down.");
    writeFileSync(
      join(p, "AGENTS.md"),
      [
        "@../outside.md",
        `@${root}/outside.md`,
        "@~/notes.md",
        "@./link.md",
        "@./sub/../sub/inner.md",
      ].join("\n"),
    );
    const allowed = `the project root ${p}`;
    expect(await load(root)).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          origin: "project",
          content: [
            "@../outside.md",
            `@${root}/outside.md`,
            "@~/notes.md",
            "@./link.md",
            "Inside, one folder down.",
          ].join("\n"),
        },
      ],
      diagnostics: [
        outside(`${p}/AGENTS.md`, "@../outside.md", `${root}/outside.md`, allowed, 1),
        outside(`${p}/AGENTS.md`, `@${root}/outside.md`, `${root}/outside.md`, allowed, 2),
        outside(`${p}/AGENTS.md`, "@~/notes.md", `${root}/home/notes.md`, allowed, 3),
        outside(`${p}/AGENTS.md`, "@./link.md", `${root}/outside.md`, allowed, 4),
      ],
    });
  });

  it("the same holds in a trusted render, and for imports of imports", async () => {
    const { root, p } = layout();
    writeFileSync(join(p, "AGENTS.md"), "@./a.md");
    writeFileSync(join(p, "a.md"), "a: @../outside.md");
    expect(await load(root)).toEqual({
      files: [{ path: `${p}/AGENTS.md`, content: "a: @../outside.md", origin: "project" }],
      diagnostics: [
        {
          ...outside(`${p}/a.md`, "@../outside.md", `${root}/outside.md`, `the project root ${p}`),
          column: 4,
        },
      ],
    });
  });

  it("a user-level file's imports stay inside the home (or the agent dir)", async () => {
    const { root } = layout();
    writeFileSync(join(root, "agent", "AGENTS.md"), "@~/notes.md\n@../outside.md");
    expect(await load(root)).toEqual({
      files: [
        {
          path: `${root}/agent/AGENTS.md`,
          content: "The user's notes.\n@../outside.md",
          origin: "user",
        },
      ],
      diagnostics: [
        outside(
          `${root}/agent/AGENTS.md`,
          "@../outside.md",
          `${root}/outside.md`,
          `the home folder ${root}/home or the agent dir ${root}/agent`,
          2,
        ),
      ],
    });
  });

  it("a file above the project root may import from its own folder", async () => {
    const { root } = layout();
    writeFileSync(join(root, "AGENTS.md"), "Above: @./outside.md");
    expect((await load(root)).files).toEqual([
      {
        path: `${root}/AGENTS.md`,
        content: "Above: SECRET outside the project",
        origin: "project",
      },
    ]);
  });
});

describe("@imports of things that are not text files", () => {
  const unreadable = (path: string, written: string, why: string, line: number) => ({
    level: "warning",
    code: "import-unreadable",
    message: `${written}: ${why}; left as written`,
    path,
    line,
    column: 1,
  });

  it("a FIFO, a folder, a symlink loop and a binary file keep the token; nothing blocks", async () => {
    const root = tempDir();
    const p = join(root, "project");
    mkdirSync(join(p, "folder"), { recursive: true });
    execFileSync("mkfifo", [join(p, "pipe.md")]);
    symlinkSync("loop.md", join(p, "loop.md"));
    writeFileSync(join(p, "bin.md"), Buffer.from([0x61, 0x00, 0x62]));
    writeFileSync(join(p, "AGENTS.md"), "@./pipe.md\n@./folder\n@./loop.md\n@./bin.md");
    const result = await load(root);
    expect(result).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          content: "@./pipe.md\n@./folder\n@./loop.md\n@./bin.md",
          origin: "project",
        },
      ],
      diagnostics: [
        unreadable(
          `${p}/AGENTS.md`,
          "@./pipe.md",
          "not a regular file; skipped without opening it",
          1,
        ),
        unreadable(`${p}/AGENTS.md`, "@./folder", "a folder; skipped without opening it", 2),
        unreadable(
          `${p}/AGENTS.md`,
          "@./loop.md",
          `ELOOP: too many symbolic links encountered, realpath '${p}/loop.md'`,
          3,
        ),
        unreadable(`${p}/AGENTS.md`, "@./bin.md", "binary file (NUL bytes) skipped", 4),
      ],
    });
  }, 5000);
});

describe("size caps", () => {
  const cut = (path: string, total: number, max: number, kept: number) => ({
    level: "warning",
    code: "context-cut",
    message: `file is ${total} bytes, over the ${max}-byte limit: cut after ${kept} bytes, ${total - kept} left out`,
    path,
  });

  it("an import over maxBytes is cut at a UTF-8 boundary and ends with a marker line", async () => {
    const root = tempDir();
    const p = join(root, "project");
    mkdirSync(p);
    // "é" is two bytes, 29 and 30: a cut at 30 would split it, so the cut is at 29.
    writeFileSync(join(p, "big.md"), `${"a".repeat(29)}é${"b".repeat(90)}`);
    writeFileSync(join(p, "AGENTS.md"), "Start @./big.md end");
    expect(await load(root, { maxBytes: 30 })).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          origin: "project",
          content: `Start ${"a".repeat(29)}\n[… 92 B (92 bytes) more of this file left out: context files are cut at 30 B] end`,
        },
      ],
      diagnostics: [cut(`${p}/big.md`, 121, 30, 29)],
    });
  });

  it("a 50 MB context file: only its head is read, cut with a marker and a warning", async () => {
    const root = tempDir();
    const p = join(root, "project");
    mkdirSync(p);
    const path = join(p, "AGENTS.md");
    // Sparse: 300 KB of text, then NUL bytes up to 50 MB. Reading the tail would
    // make the file binary; reading it whole would take time and memory.
    const fd = openSync(path, "w");
    writeSync(fd, "Line of text.\n".repeat(300_000 / 14));
    closeSync(fd);
    execFileSync("truncate", ["-s", String(50 * 1024 * 1024), path]);
    // CPU time, not the clock's: 0.07 s here (the clock said 0.3-0.6 s at loads of 0-8, against
    // the same 2 s); CI machines are up to 2x slower. The point is only that the cost does not
    // grow with the file; what was read is asserted below, to the byte.
    const { cpuMs, wallMs, value: result } = await cpuTimed(() => load(root));
    expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(2000);
    const max = 256 * 1024;
    const head =
      "Line of text.\n".repeat(Math.floor(max / 14)) + "Line of text.\n".slice(0, max % 14);
    expect(result).toEqual({
      files: [
        {
          path: `${p}/AGENTS.md`,
          origin: "project",
          content: `${head.trim()}\n[… 49.8 MiB (${50 * 1024 * 1024 - max} bytes) more of this file left out: context files are cut at 256 KiB]`,
        },
      ],
      diagnostics: [cut(path, 50 * 1024 * 1024, max, max)],
    });
  });

  it("renderSystemPrompt: maxContextBytes caps the context files and is checked", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"));
    writeFileSync(join(root, "project", "AGENTS.md"), "0123456789abcdef");
    const result = await renderSystemPrompt(pinned(root, { maxContextBytes: 10 }));
    expect(result.sections.find((s) => s.name === "project_context")?.text).toBe(
      contextSection([
        [
          `${root}/project/AGENTS.md`,
          [
            "0123456789",
            "[… 6 B (6 bytes) more of this file left out: context files are cut at 10 B]",
          ].join("\n"),
        ],
      ]),
    );
    await expect(renderSystemPrompt(pinned(root, { maxContextBytes: 1.5 }))).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        "maxContextBytes: must be a whole number of bytes, 1 or more, got 1.5",
      ),
    );
  });

  it("maxBytes must be a whole number of bytes", async () => {
    const root = tempDir();
    await expect(load(root, { maxBytes: 0 })).rejects.toThrow(
      "maxBytes: expected a whole number of bytes (1 or more), got 0",
    );
  });
});
