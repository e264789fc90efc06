import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse.js";

// Review rev109b F1 (low): a `vars:` value YAML reads as `!!binary` (a Uint8Array) or `!!set` (a
// Set) was called "a mapping" in the config diagnostic, and a `!!timestamp` was printed in the
// machine's own time zone (`Fri Dec 14 2001 00:00:00 GMT+0000 (…)`), so the same file gave other
// words on another machine. Each is now named by its kind, a date in UTC as ISO 8601.

const messages = (source: string) =>
  parseConfig(source, "/p/.pi/sysprompt.yaml", "project").diagnostics.map((d) => [
    d.line,
    d.message,
  ]);

describe("hostile repository: config values of YAML's other kinds", () => {
  it("!!binary, !!set and !!timestamp are named by their kind, the date in UTC", () => {
    const got = messages(
      "vars:\n  a: !!binary aGVsbG8=\n  b: !!timestamp 2001-12-14\n  c: !!set {x, y}\n  d: ok\n",
    );
    expect(got.map(([line]) => line)).toEqual([2, 3, 4]);
    expect(got[0]?.[1]).toContain("got binary data (!!binary)");
    expect(got[1]?.[1]).toContain("got 2001-12-14T00:00:00.000Z");
    expect(got[2]?.[1]).toContain("got a set (!!set)");
    for (const [, message] of got) expect(message).not.toMatch(/mapping|GMT/);
  });
});
