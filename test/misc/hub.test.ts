import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The hub stays thin: preparePrompt resolves the options, runs the table of
 * gathering steps, collects diagnostics in one loop and assembles the data.
 * Anything more belongs in gather/ (a step), render-options.ts (an option)
 * or prompt-data.ts (the data).
 */
const HUB = new URL("../../src/render-system-prompt.ts", import.meta.url);

/** The lines of `async function <name>(` (exported or not) through its closing brace at column 0. */
function functionLines(source: string, name: string): string[] {
  const lines = source.split("\n");
  const start = lines.findIndex((l) =>
    l.replace(/^export /, "").startsWith(`async function ${name}(`),
  );
  const end = lines.findIndex((l, i) => i > start && l === "}");
  if (start < 0 || end < 0) throw new Error(`${name} not found in ${HUB.pathname}`);
  return lines.slice(start, end + 1);
}

describe("the hub, render-system-prompt.ts", () => {
  // preparePrompt runs `prepare` under one look at your private places (withPrivateLook, fx104b).
  const source = readFileSync(HUB, "utf8");
  const body = functionLines(source, "prepare");

  it("preparePrompt is prepare under one look at your private places", () => {
    expect(source).toContain(
      "return withPrivateLook(() => prepare(given, runner, givenBy, stop), given.env ?? process.env);",
    );
  });

  it("preparePrompt is under 80 lines", () => {
    expect(body.length).toBeLessThan(80);
  });

  it("preparePrompt resolves the options once, runs the table once, and has one diagnostics loop", () => {
    const count = (pattern: RegExp) => body.filter((l) => pattern.test(l)).length;
    expect(count(/\bresolveRenderOptions\(/)).toBe(1);
    expect(count(/\brunStepTable\(/)).toBe(1);
    expect(count(/\bfor \(/)).toBe(1);
    expect(body.filter((l) => /\bfor \(/.test(l))[0]).toContain(".diagnostics");
  });
});
