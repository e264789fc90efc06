import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { escapeControls, escapeInline } from "../../src/_text.js";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";
import { type CliRun, cli } from "./_run.js";

// Text a repository wrote reaches the terminal in diagnostics and reports: an
// import token, a file name, a section's description. None of it may reach it
// as a control character (OSC 52 writes the clipboard, CSI moves the cursor).

const ESC = "\u001b";
const BEL = "\u0007";
const CSI8 = "\u009b";
/**
 * A clipboard write, an 8-bit CSI "clear screen", a bidi override, the
 * right-to-left, left-to-right and Arabic letter marks (which reorder text
 * around them unseen) and a zero-width space (a BOM is white space to an
 * import token: the set's unit test has it).
 */
const HOSTILE = `${ESC}]52;c;ZXZpbA==${BEL}${CSI8}2J\u202e\u200f\u200e\u061c\u200b`;
const SHOWN = "\\u001b]52;c;ZXZpbA==\\u0007\\u009b2J\\u202e\\u200f\\u200e\\u061c\\u200b";

/**
 * The characters a terminal acts on in `text`, or that reorder or hide what it
 * shows: below U+0020 but tab and line feed, DEL and C1, bidi marks,
 * embeddings, overrides and isolates, zero-width characters, line and
 * paragraph separators, the BOM. Written out here, not taken from src.
 */
function active(text: string): string[] {
  return [...text].filter((c) => {
    const code = c.charCodeAt(0);
    return (
      (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x061c ||
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x2028 && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069) ||
      code === 0xfeff
    );
  });
}

function expectInert(out: CliRun): void {
  expect([active(out.stdout), active(out.stderr)]).toEqual([[], []]);
}

/** A project whose AGENTS.md imports a file named with escapes, and whose section is named with them. */
function hostile(): string {
  const root = tempDir();
  mkdirSync(join(root, "project", ".pi", "sections"), { recursive: true });
  writeFileSync(join(root, "project", "AGENTS.md"), `Read @./${HOSTILE}.md first.\n`);
  writeFileSync(
    join(root, "project", ".pi", "sections", "team.md"),
    `---\norder: x${HOSTILE}\ndescription: "Team ${HOSTILE}"\n---\nThe team.\n`,
  );
  mkdirSync(join(root, "project", ".pi", "prompts"), { recursive: true });
  writeFileSync(
    join(root, "project", ".pi", "prompts", "review.md"),
    `---\ndescription: "Review ${HOSTILE}"\n---\nReview $1.\n`,
  );
  // Not a valid section name: a diagnostic names the file.
  writeFileSync(join(root, "project", ".pi", "sections", `${HOSTILE}.md`), "Hi.\n");
  return root;
}

describe("escapeControls and escapeInline", () => {
  it("write controls as visible JSON escapes; tab and line feed stay, or (inline) the line feed goes too", () => {
    expect(escapeControls(`a${HOSTILE}\tb\nc\rd\u007f`)).toBe(`a${SHOWN}\tb\nc\\u000dd\\u007f`);
    expect(escapeInline("one\nerror fake [x] line")).toBe("one\\u000aerror fake [x] line");
    // JSON through it keeps its meaning.
    const json = JSON.stringify({ s: `x${CSI8}\u2028y${ESC}` });
    expect(JSON.parse(escapeControls(json))).toEqual({ s: `x${CSI8}\u2028y${ESC}` });
    expect(escapeControls(json)).not.toContain(CSI8);
  });

  it("every character of the set is escaped, in each kind of text; its neighbours are not", () => {
    // The controls but tab and line feed, the line and paragraph separators, and every
    // code point Unicode calls default-ignorable (the tag characters past U+FFFF too).
    const ignorable = /^\p{Default_Ignorable_Code_Point}$/u;
    const set = [
      ...Array.from({ length: 0x20 }, (_, i) => i).filter((c) => c !== 0x09 && c !== 0x0a),
      ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
      0x2028,
      0x2029,
      ...Array.from({ length: 0xe1000 }, (_, i) => i).filter((c) =>
        ignorable.test(String.fromCodePoint(c)),
      ),
    ].map((c) => String.fromCodePoint(c));
    const text = set.join("");
    const json = (c: string) =>
      [...Array(c.length).keys()]
        .map((k) => `\\u${c.charCodeAt(k).toString(16).padStart(4, "0")}`)
        .join("");
    for (const kind of ["report", "field", "name"] as const) {
      expect(active(escapeControls(text, kind)), kind).toEqual([]);
      expect(escapeControls(text, kind)).toBe(set.map(json).join(""));
    }
    // JSON reads the escapes back as the same text.
    expect(JSON.parse(`"${escapeControls(text, "name")}"`)).toBe(text);
    // Just outside each span: shown as written (an Arabic letter, a hyphen, superscript zero, Ｗ).
    const neighbours =
      "\u061b\u061d\u200a\u2010\u2027\u202f\u2070\u00ac\u00ae\ufefe\uff00\u{e1000} ";
    expect(escapeControls(neighbours, "name")).toBe(neighbours);
  });

  it("one implementation, three kinds of text: a report keeps tab and line feed, a field tab, a name neither", () => {
    const text = `a${HOSTILE}\tb\nc`;
    expect(escapeControls(text, "report")).toBe(`a${SHOWN}\tb\nc`);
    expect(escapeControls(text, "field")).toBe(`a${SHOWN}\tb\\u000ac`);
    expect(escapeInline(text)).toBe(escapeControls(text, "field"));
    expect(escapeControls(text, "name")).toBe(`a${SHOWN}\\u0009b\\u000ac`);
  });
});

describe("every report the CLI prints is inert", () => {
  it("render: the import token's escapes are shown, not sent, on stderr", async () => {
    const root = hostile();
    const out = await cli(root, ["render"]);
    expectInert({ ...out, stdout: "" });
    expect(out.stderr).toContain(`@./${SHOWN}.md`);
  });

  it("check, explain, sections, list: diagnostics, names and descriptions escaped", async () => {
    const root = hostile();
    for (const argv of [["check"], ["explain"], ["sections"], ["list"], ["render", "--json"]]) {
      const out = await cli(root, argv, argv[0] !== "check" && argv[0] !== "list");
      expectInert(out);
      expect(out.stdout + out.stderr, argv.join(" ")).toContain(SHOWN);
    }
  });

  it("render --json keeps its meaning: the JSON parses to the raw text", async () => {
    const root = hostile();
    const out = await cli(root, ["render", "--json"]);
    const parsed = JSON.parse(out.stdout) as { diagnostics: { message: string }[] };
    expect(parsed.diagnostics.some((d) => d.message.includes(`@./${HOSTILE}.md`))).toBe(true);
  });

  it("colours on a terminal still work; a repository's own colour codes do not pass as ESC", async () => {
    const root = hostile();
    let stdout = "";
    mkdirSync(join(root, "agent"), { recursive: true });
    await run(["check", "--cwd", join(root, "project"), "--agent-dir", join(root, "agent")], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: () => undefined,
      cwd: join(root, "project"),
      env: {},
      home: join(root, "home"),
      isTTY: true,
      machine: { platform: "linux", arch: "x64" },
    });
    expect(stdout).toContain(`${ESC}[33mwarning${ESC}[39m`);
    expect(stdout).toContain(SHOWN);
    const ours = new RegExp(`${ESC}\\[(?:1|2|22|31|32|33|36|39)m`, "g");
    expect(active(stdout.replaceAll(ours, ""))).toEqual([]);
  });

  it("the prompt goes out byte for byte into a pipe, and escaped on a terminal", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"), { recursive: true });
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "project", "AGENTS.md"), `Hello ${HOSTILE} there.\n`);
    const renderTo = async (isTTY: boolean) => {
      let stdout = "";
      await run(["render", "--agent-dir", join(root, "agent"), "--now", "2026-01-15T10:00:00Z"], {
        stdout: (t) => {
          stdout += t;
        },
        stderr: () => undefined,
        cwd: join(root, "project"),
        env: {},
        home: join(root, "home"),
        isTTY,
        machine: { platform: "linux", arch: "x64" },
      });
      return stdout;
    };
    expect(await renderTo(false)).toContain(`Hello ${HOSTILE} there.`);
    const shown = await renderTo(true);
    expect(shown).toContain(`Hello ${SHOWN} there.`);
    expect(active(shown)).toEqual([]);
  });
});
