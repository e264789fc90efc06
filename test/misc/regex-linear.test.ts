import { describe, expect, it } from "vitest";
import { regexLiterals, superLinear } from "./_regex-sweep.js";

// Review rev68b F1/F2: regular expressions run on repository text backtracked quadratically
// on one long line (`key\s*(=?)(.*)$` in a git config, `-[ \t]*(.*)$` in a frontmatter list,
// `[ \t]*\n?[ \t]*` in a link definition): `.` stops at U+2028, `$` fails, and every way of
// splitting the run is tried again. Every regular expression literal in src/ is run on
// adversarial lines built from its own characters (a prefix of up to three of them, a run of
// one character, 2,000 then 16,000 long, or of one of its literal runs, 8,000 then 64,000, a
// tail of one, U+2028, `\r`, U+2029 or nothing): none may grow much faster than the line. On
// the code before it found the three above, `^(.+) doesn't match (.+)$` and `/ \(.*$/`.
const DIR = process.env.REGEX_SWEEP_DIR ?? "src";

describe("no regular expression in src/ is super-linear on one long line", () => {
  it("every literal, on lines of its own characters", () => {
    const slow: string[] = [];
    for (const literal of regexLiterals(DIR)) {
      for (const f of superLinear(literal.regex)) {
        slow.push(
          `${literal.where} ${literal.text} on ${f.line}: ${f.small.toFixed(1)} ms -> ${f.big.toFixed(1)} ms`,
        );
      }
    }
    expect(slow).toEqual([]);
  }, 120_000);
});
