import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usesBase } from "../../src/author/_drift.js";
import { checkProject } from "../../src/author/check/check.js";
import { ejectSections } from "../../src/author/eject/eject.js";
import { diffEjected } from "../../src/author/eject/eject-diff.js";
import { FIXTURES, tempDir } from "../api/_helpers.js";

const OLD = join(FIXTURES, "drift", "builtin-old");
const NEW = join(FIXTURES, "drift", "builtin-new");

/** What eject records: sha256 of the builtin file's text, its first 12 hex digits. */
const hashOf = (dir: string, name: string) =>
  `sha256:${createHash("sha256")
    .update(readFileSync(join(dir, "sections", `${name}.md`)))
    .digest("hex")
    .slice(0, 12)}`;
const builtinText = (dir: string, name: string) =>
  readFileSync(join(dir, "sections", `${name}.md`), "utf8");

function setup() {
  const root = tempDir();
  for (const dir of ["project", "agent", "home"]) mkdirSync(join(root, dir));
  return {
    root,
    options: {
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
      env: {},
    },
    sections: join(root, "project", ".pi", "sections"),
    bases: join(root, "project", ".pi", ".sysprompt", "base"),
  };
}

/** The project's check diagnostics about drift (and the ejected-from key), without the rest. */
async function driftFindings(options: ReturnType<typeof setup>["options"], builtinDir: string) {
  const report = await checkProject({ ...options, builtinDir });
  return report.diagnostics.filter(
    (d) => d.code === "section-drift" || d.message.includes("ejected-from"),
  );
}

describe("eject records the builtin it copied", () => {
  it("writes the builtin with an ejected-from hash as the last frontmatter key, and keeps the builtin's text for --diff", async () => {
    const { options, sections, bases } = setup();
    const result = await ejectSections({ ...options, builtinDir: OLD, names: ["notes", "bare"] });
    expect(result.diagnostics).toEqual([]);
    expect(result.written.map((f) => [f.name, f.hash, f.base])).toEqual([
      ["notes", hashOf(OLD, "notes"), join(bases, "notes.md")],
      ["bare", hashOf(OLD, "bare"), join(bases, "bare.md")],
    ]);
    expect(readFileSync(join(sections, "notes.md"), "utf8")).toBe(
      `---\norder: 10\ndescription: Notes, as the old version wrote them.\nejected-from: ${hashOf(OLD, "notes")}\n---\nKeep notes short.\nWrite them in the present tense.\n`,
    );
    // A builtin without frontmatter gets a block holding only the record.
    expect(readFileSync(join(sections, "bare.md"), "utf8")).toBe(
      `---\nejected-from: ${hashOf(OLD, "bare")}\n---\nNo frontmatter here, old.\n`,
    );
    expect(readFileSync(join(bases, "notes.md"), "utf8")).toBe(builtinText(OLD, "notes"));
    expect(readFileSync(join(bases, "bare.md"), "utf8")).toBe(builtinText(OLD, "bare"));
  });

  it("a planted link on the way to the kept text is refused like one to the copy: nothing is written", async () => {
    const { root, options, sections } = setup();
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(join(root, "project", ".pi"));
    symlinkSync(elsewhere, join(root, "project", ".pi", ".sysprompt"));
    const result = await ejectSections({ ...options, builtinDir: OLD, names: ["notes"] });
    expect(result).toEqual({
      dir: sections,
      written: [],
      skipped: [],
      diagnostics: [
        {
          level: "error",
          code: "unsafe-target",
          message: expect.stringContaining("a symbolic link"),
          path: join(root, "project", ".pi", ".sysprompt"),
        },
      ],
    });
    expect(existsSync(sections)).toBe(false);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("the key is known: a fresh copy checks clean against the builtin it came from", async () => {
    const { options } = setup();
    await ejectSections({ ...options, builtinDir: OLD, all: true });
    const report = await checkProject({ ...options, builtinDir: OLD });
    // The old builtin folder has no tools.md: a render with it says so, and check with it.
    expect(report.diagnostics.filter((d) => d.code !== "tool-unknown")).toEqual([]);
  });
});

describe("check reports an override whose builtin moved", () => {
  it("names the section and both hashes, at the ejected-from line; an unchanged builtin and a {{> base}} override say nothing", async () => {
    const { options, sections } = setup();
    await ejectSections({
      ...options,
      builtinDir: OLD,
      names: ["notes", "steady", "gone", "greet"],
    });
    // The greet override follows the builtin on purpose, whatever its record says.
    writeFileSync(
      join(sections, "greet.md"),
      `---\nejected-from: ${hashOf(OLD, "greet")}\n---\n{{> base}}\nAnd welcome.\n`,
    );
    expect(await driftFindings(options, NEW)).toEqual([
      {
        level: "info",
        code: "section-drift",
        message: `the builtin section "gone" this file was ejected from (${hashOf(OLD, "gone")}) is no longer there; this file is now a section of its own`,
        path: join(sections, "gone.md"),
        line: 3,
      },
      {
        level: "info",
        code: "section-drift",
        message: `the builtin section "notes" changed since this file was ejected from it (${hashOf(OLD, "notes")}, now ${hashOf(NEW, "notes")}); to see how: sysprompt eject --diff notes`,
        path: join(sections, "notes.md"),
        line: 4,
      },
    ]);
  });

  it("a user-layer copy is checked the same way", async () => {
    const { options, root } = setup();
    await ejectSections({ ...options, builtinDir: OLD, names: ["notes"], user: true });
    expect(await driftFindings(options, NEW)).toEqual([
      expect.objectContaining({
        code: "section-drift",
        path: join(root, "agent", "sections", "notes.md"),
      }),
    ]);
  });

  it("a tampered record is a located warning, never echoed, and never drift", async () => {
    const { options, sections } = setup();
    mkdirSync(sections, { recursive: true });
    writeFileSync(
      join(sections, "notes.md"),
      "---\nejected-from: sha256:ZZZZZZZZZZZZ\n---\nMine.\n",
    );
    writeFileSync(
      join(sections, "steady.md"),
      `---\norder: 20\nejected-from: sha256:${"a".repeat(20_000)}\n---\nMine.\n`,
    );
    writeFileSync(join(sections, "greet.md"), "---\nejected-from: [1, 2]\n---\nMine.\n");
    const expected = (path: string, line: number) => ({
      level: "warning",
      code: "section-meta",
      message:
        'frontmatter "ejected-from" must be sha256: and 12 lower-case hex digits, as sysprompt eject writes it; ignored',
      path,
      line,
    });
    expect(await driftFindings(options, NEW)).toEqual([
      expected(join(sections, "greet.md"), 2),
      expected(join(sections, "notes.md"), 2),
      expected(join(sections, "steady.md"), 3),
    ]);
  });
});

describe("diffEjected: the builtin then, the builtin now, the override", () => {
  it("gives the three texts and whether the builtin moved", async () => {
    const { options, sections, bases } = setup();
    await ejectSections({ ...options, builtinDir: OLD, names: ["notes"] });
    const override = `${readFileSync(join(sections, "notes.md"), "utf8")}Mine too.\n`;
    writeFileSync(join(sections, "notes.md"), override);
    expect(await diffEjected({ ...options, builtinDir: NEW, name: "notes" })).toEqual({
      name: "notes",
      recorded: hashOf(OLD, "notes"),
      current: hashOf(NEW, "notes"),
      drifted: true,
      builtinThen: { path: join(bases, "notes.md"), text: builtinText(OLD, "notes") },
      builtinNow: { path: join(NEW, "sections", "notes.md"), text: builtinText(NEW, "notes") },
      override: { path: join(sections, "notes.md"), text: override },
      diagnostics: [],
    });
  });

  it("with no kept copy, 'then' is the builtin now when the hashes agree, and unknown (with a note) when they do not", async () => {
    const { options, sections, bases } = setup();
    await ejectSections({ ...options, builtinDir: OLD, names: ["notes", "steady"] });
    writeFileSync(join(bases, "notes.md"), "edited by hand\n");
    const steady = await diffEjected({ ...options, builtinDir: NEW, name: "steady" });
    expect([steady.drifted, steady.builtinThen]).toEqual([
      false,
      { path: join(bases, "steady.md"), text: builtinText(OLD, "steady") },
    ]);
    const notes = await diffEjected({ ...options, builtinDir: NEW, name: "notes" });
    expect([notes.drifted, notes.builtinThen, notes.diagnostics]).toEqual([
      true,
      null,
      [
        {
          level: "warning",
          code: "eject-base-mismatch",
          message: `the kept builtin text does not match the recorded ${hashOf(OLD, "notes")} (edited, or from another eject); the builtin as it was is unknown`,
          path: join(bases, "notes.md"),
        },
      ],
    ]);
    expect(notes.override.path).toBe(join(sections, "notes.md"));
  });

  it("a kept text that is a FIFO or a link is not read: a note, and 'then' unknown", async () => {
    const { root, options, bases } = setup();
    await ejectSections({ ...options, builtinDir: OLD, names: ["notes", "steady"] });
    execFileSync("rm", [join(bases, "notes.md"), join(bases, "steady.md")]);
    execFileSync("mkfifo", [join(bases, "notes.md")]);
    writeFileSync(join(root, "secret.md"), builtinText(OLD, "steady"));
    symlinkSync(join(root, "secret.md"), join(bases, "steady.md"));
    const notes = await diffEjected({ ...options, builtinDir: NEW, name: "notes" });
    expect([notes.builtinThen, notes.diagnostics.map((d) => [d.code, d.path])]).toEqual([
      null,
      [["unsafe-target", join(bases, "notes.md")]],
    ]);
    // Unchanged builtin: "then" is the builtin now, never the link's target.
    const steady = await diffEjected({ ...options, builtinDir: NEW, name: "steady" });
    expect([steady.builtinThen?.path, steady.diagnostics.map((d) => d.code)]).toEqual([
      join(NEW, "sections", "steady.md"),
      ["unsafe-target"],
    ]);
  });

  it("refuses a name that is not a section name, and a section with no override", async () => {
    const { options } = setup();
    await expect(diffEjected({ ...options, builtinDir: NEW, name: "../x" })).rejects.toThrow(
      /not a section name/,
    );
    await expect(diffEjected({ ...options, builtinDir: NEW, name: "notes" })).rejects.toThrow(
      /no override of "notes"/,
    );
  });
});

describe("usesBase: whether a copy follows the builtin, read from its tags", () => {
  it("finds every way of calling the partial base, and nothing else", () => {
    for (const body of [
      "{{> base}}",
      "a {{~> base}} b",
      "{{>base~}}",
      "{{#> base}}fallback{{/base}}",
      "{{~#> base }}x{{/base}}",
      '{{> "base"}}',
      "{{> 'base'}}",
      "{{> [base]}}",
      "{{> base this}}",
      "{{#if a}}{{#each b}}{{> base}}{{/each}}{{/if}}",
      '{{#*inline "x"}}{{> base}}{{/inline}}',
      // A template that does not parse is read the same way; its syntax error is told elsewhere.
      "{{#if a}}{{> base}}",
      // `\\{{` is a backslash and a real tag.
      "\\\\{{> base}}",
      "\\{{x}} {{> base}}",
    ]) {
      expect([body, usesBase(body)]).toEqual([body, true]);
    }
    for (const body of [
      "",
      "base",
      "{{base}}",
      "{{> baseline}}",
      "{{> base.md}}",
      "{{> base/x}}",
      "{{> other}} base",
      "{{!-- {{> base}} --}}",
      "{{! {{> base }}",
      "{{{{raw}}}}{{> base}}{{{{/raw}}}}",
      '{{x "{{> base}}"}}',
      // Escaped: literal text for Handlebars (review rev44b L2).
      "\\{{> base}}",
      "a \\{{~> base}} b",
      "\\{{#> base}}x{{/base}}",
    ]) {
      expect([body, usesBase(body)]).toEqual([body, false]);
    }
  });

  it("reads a long template in linear time", () => {
    const body = `${"{{a.b}}{{> other}} ".repeat(20_000)}{{> base}}`;
    const started = performance.now();
    expect(usesBase(body)).toBe(true);
    expect(usesBase(body.slice(0, -10))).toBe(false);
    // 400 KB, 40,000 tags, each tried once: milliseconds (one search from every tag would be seconds).
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
