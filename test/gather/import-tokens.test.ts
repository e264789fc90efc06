import { describe, expect, it } from "vitest";
import { findImportTokens } from "../../src/gather/context/import-tokens.js";
import { cpuTimed } from "./_timed.js";

/** Just the paths found, in order. */
const paths = (text: string) => findImportTokens(text).map((t) => t.path);

describe("findImportTokens: what is an import", () => {
  it("an @ at the start of a line or after whitespace, followed by a path start", () => {
    expect(
      paths(
        [
          "@./a.md",
          "see @../b.md and\t@~/c.md",
          "@/abs/d.md @e.md @9.md @_f.md @-g.md @Ünïcode.md",
        ].join("\n"),
      ),
    ).toEqual([
      "./a.md",
      "../b.md",
      "~/c.md",
      "/abs/d.md",
      "e.md",
      "9.md",
      "_f.md",
      "-g.md",
      "Ünïcode.md",
    ]);
  });

  it("not after a non-space: emails and git@host:org/repo", () => {
    expect(
      paths("mail me at dev@example.com or clone git@github.com:org/repo.git, x@./y.md"),
    ).toEqual([]);
  });

  it("not before something that cannot start a path", () => {
    expect(paths("@.env @~user @ x @@y @. @! @(a) @*")).toEqual([]);
  });

  it("trailing . , ; : ! ? ) ] } \" ' are not part of the path; inner ones are", () => {
    expect(
      paths(
        "(see @./a.md). Also @b.md, @c.md; @d.md: @e.md! @f.md? @g.md] @h.md} @i.md\" @j.md' @k.md).,!? @l.v1.md",
      ),
    ).toEqual([
      "./a.md",
      "b.md",
      "c.md",
      "d.md",
      "e.md",
      "f.md",
      "g.md",
      "h.md",
      "i.md",
      "j.md",
      "k.md",
      "l.v1.md",
    ]);
  });

  it("an @ right after a bracket or quote is not after whitespace: not an import", () => {
    expect(paths('[@a.md] "@b.md" (@c.md)')).toEqual([]);
  });

  it("reports offsets, 1-based line and column", () => {
    expect(findImportTokens("intro\n  read @./a.md.\n")).toEqual([
      { start: 13, end: 20, path: "./a.md", line: 2, column: 8 },
    ]);
  });
});

describe("findImportTokens: where imports are not expanded", () => {
  it("fenced code blocks, with ``` or ~~~, closed by the same character at least as long", () => {
    const text = [
      "@./before.md",
      "```sh",
      "@./in-backticks.md",
      "~~~",
      "@./still-in.md",
      "```",
      "@./between.md",
      "~~~~",
      "@./in-tildes.md",
      "~~~",
      "@./not-closed-by-shorter.md",
      "~~~~~",
      "@./after.md",
    ].join("\n");
    expect(paths(text)).toEqual(["./before.md", "./between.md", "./after.md"]);
  });

  it("an unclosed fence runs to the end; an indented fence (up to 3 spaces) counts", () => {
    expect(paths("@./a.md\n   ```\n@./b.md\n")).toEqual(["./a.md"]);
    expect(paths("@./a.md\n    ```\n@./b.md\n")).toEqual(["./a.md", "./b.md"]);
  });

  it("a closing fence may have trailing spaces, but no other text", () => {
    expect(paths("```\n@./a.md\n``` x\n@./b.md\n```  \n@./c.md")).toEqual(["./c.md"]);
  });

  it("inline code spans: a run of N backticks to the next run of exactly N", () => {
    expect(paths("`@./a.md` ``x ` @./b.md`` @./c.md ``` `` @./d.md ``` @./e.md")).toEqual([
      "./c.md",
      "./e.md",
    ]);
  });

  it("a backtick with no closer is literal; a span does not cross a blank line", () => {
    expect(paths("it`s @./a.md")).toEqual(["./a.md"]);
    expect(paths("`open\n\n@./a.md `")).toEqual(["./a.md"]);
    expect(paths("`open\n@./a.md `")).toEqual([]);
  });

  it("HTML comments; an unterminated one runs to the end", () => {
    expect(paths("@./a.md <!-- @./b.md\n@./c.md --> @./d.md")).toEqual(["./a.md", "./d.md"]);
    expect(paths("@./a.md <!-- @./b.md\n\n@./c.md")).toEqual(["./a.md"]);
  });

  it("whichever starts first wins: a comment inside a code span, a fence inside a comment", () => {
    expect(paths("`<!--` @./a.md")).toEqual(["./a.md"]);
    expect(paths("<!--\n```\n-->\n@./a.md")).toEqual(["./a.md"]);
  });
});

describe("findImportTokens: cost is linear in the input", () => {
  // Each input is ~1 MB built to make a backtracking or rescanning scanner
  // quadratic (minutes at this size). A linear one takes a few ms to a few
  // hundred. The bound is on the CPU time this process spent, not on the
  // clock: a loaded machine gives the scan fewer turns, and the clock counts
  // the others' turns too (seconds, with a dozen suites on two cores), while
  // the work the scan does stays the same.
  const BOUND_MS = 1000;
  const MB = 1 << 20;
  const cases: Record<string, string> = {
    "many @ with no path": "@".repeat(MB),
    "spaces then @": ` @${"a".repeat(MB)}`,
    "backtick runs of every length, none closed": Array.from({ length: 1400 }, (_, i) =>
      "`".repeat(i + 1),
    ).join("x"),
    "single backticks, each line a paragraph": "`a @./x\n\n".repeat(MB / 10),
    "unclosed comment openers after text": "x <!-".repeat(MB / 5),
    "fence-like lines with backticks in the info": "```a`\n".repeat(MB / 6),
    "a long line of trailing punctuation": `@a${".".repeat(MB)}`,
    "many short imports": "@a ".repeat(MB / 3),
  };
  for (const [name, text] of Object.entries(cases)) {
    it(name, async () => {
      const { cpuMs, wallMs } = await cpuTimed(() => findImportTokens(text));
      expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(BOUND_MS);
    });
  }
});
