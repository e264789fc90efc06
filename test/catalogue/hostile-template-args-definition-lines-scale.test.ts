import { describe, expect, it } from "vitest";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev56c (F6, F7): the definition's lines read before a placeholder are
// capped (2 KiB), and container markers before blanks are read once each, so
// the guard stays linear in the template's length
// (hostile-template-args-definition-lines.test.ts and
// hostile-template-args-indented-in-container.test.ts have the rules).

describe("hostile repository: the multi-line definition and container-indent guards stay linear", () => {
  it("20,000 placeholders in one definition's title, 20,000 markers with placeholders", () => {
    expandProjectTemplate('[x]: /u "\n$1\n"', "/t x");
    for (const [content, codes] of [
      [`[x]: /u "\n${"$1\n".repeat(20_000)}"`, ["arguments-hidden"]],
      [`[x]:\n${"a $1\n".repeat(20_000)}`, []],
      [`${"> $0".repeat(20_000)}  $1`, []],
      [`> a\n>\n${"> $0".repeat(20_000)}     $1`, ["arguments-hidden"]],
    ] as const) {
      const started = performance.now();
      const out = expandProjectTemplate(content, "/t x");
      expect(performance.now() - started, content.slice(0, 12)).toBeLessThan(1000);
      expect(out.diagnostics.map((d) => d.code)).toEqual(codes);
    }
  });
});
