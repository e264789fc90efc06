import { describe, expect, it } from "vitest";
import { parseGeminiSettings } from "../../src/gather/rules/gemini-settings.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev109e F3 (medium): 1 MiB of `/**/` on one line in a
// `.gemini/settings.json` cost some 1.5 s of CPU per render and per Gemini
// CLI hook call, trusted or not, where --deadline could not stop it: the
// comment stripper counted each block comment's line breaks by looking for
// the next one from its start, past its end to the end of the line (once
// per comment, so quadratic). Now only the comment's own characters are
// looked at.

const SETTING = '{"context":{"fileName":"X.md"}}\n';
const COMMENTS = 262_000;

/** Above 3x the parse of the same comments a line each (~160 ms, cold), 10x their parse on one line now (~40 ms), below the 1.1-1.5 s it took. */
const BOUND_MS = 400;

describe("hostile repository: a .gemini/settings.json of 1 MiB of block comments on one line", () => {
  it("is parsed in time linear in its length, its line numbers kept", async () => {
    const lines = `${"/**/\n".repeat(COMMENTS)}${SETTING}`;
    const idle = await cpuTimed(() => parseGeminiSettings(lines));
    expect(idle.value).toEqual({ value: { context: { fileName: "X.md" } } });
    const oneLine = `${"/**/".repeat(COMMENTS)}${SETTING}`;
    const { cpuMs, wallMs, value } = await cpuTimed(() => parseGeminiSettings(oneLine));
    expect(value).toEqual({ value: { context: { fileName: "X.md" } } });
    expect(
      cpuMs,
      `CPU time (${wallMs} ms on the clock; ${idle.cpuMs} ms a line each)`,
    ).toBeLessThan(BOUND_MS);
  }, 60_000);

  it("a block comment's line breaks stay, so a problem's line is the file's", () => {
    const text = `{\n/* a\n\nb */ /**/ "x": [1,\n/*\n*/ }\n`;
    const parse = parseGeminiSettings(text);
    expect("problem" in parse && parse.problem).toMatch(/^not JSON \(/);
    const deep = `/* one\ntwo */ /**/\n/**/ {"a": ${"[".repeat(70)}${"]".repeat(70)}}\n`;
    expect(parseGeminiSettings(deep)).toEqual({
      problem: "not read as JSON (it nests deeper than 64 levels, at line 3)",
    });
  });
});
