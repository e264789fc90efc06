import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Attack review rev80b F1: a trusted project's partial printed N times was held
// (`heldProjectText`) and closed (`closedOpenToYours`) afresh at every print in
// `projectPartial` (src/sections/render.ts): a 1 MB partial of Hangul tag names printed
// 20 times held `render --deadline 1000` 7-14 s of CPU. Now a render finishes the same
// text once and places each print where it is called.

const holds = vi.hoisted(() => ({ lengths: [] as number[] }));

vi.mock("../../src/sections/reserved-tags.js", async (importOriginal) => {
  const tags = await importOriginal<typeof import("../../src/sections/reserved-tags.js")>();
  return {
    ...tags,
    heldProjectText: (...args: Parameters<typeof tags.heldProjectText>) => {
      holds.lengths.push(args[0].length);
      return tags.heldProjectText(...args);
    },
  };
});

/** Lines of `<` + 60 Hangul syllables + `> x`, cycling through 11,000 of them. */
function hangulTags(units: number): string {
  let text = "";
  for (let k = 0; text.length < units; ) {
    text += "<";
    for (let m = 0; m < 60; m++) text += String.fromCodePoint(0xac00 + (k++ % 11_000));
    text += "> x\n";
  }
  return text;
}

describe("hostile repository: a project's partial printed many times", () => {
  it("is held once a render, each print placed as before", async () => {
    const root = tempDir();
    const partial = hangulTags(4_000);
    let section = "---\norder: 100\n---\n";
    for (let r = 0; r < 20; r++) section += `Part ${r}:\n\n{{> p}}\n\n`;
    writeFiles(root, {
      "home/.pi/agent/AGENTS.md": "USER-RULE-MARKER: be careful.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/partials/p.md": partial,
      "project/.pi/sections/s.md": section,
    });
    holds.lengths = [];
    const r = await renderSystemPrompt({
      cwd: join(root, "project"),
      home: join(root, "home"),
      agentDir: join(root, "home/.pi/agent"),
      deadlineMs: 60_000,
    });
    // The partial's text held once (was 20 times), the section's whole text once.
    expect(holds.lengths.filter((n) => n >= partial.length && n < 2 * partial.length)).toHaveLength(
      1,
    );
    expect(holds.lengths.filter((n) => n >= 20 * partial.length)).toHaveLength(1);
    expect(r.text).toContain("USER-RULE-MARKER");
    for (let p = 0; p < 20; p++) expect(r.text).toContain(`Part ${p}:`);
    expect(r.text.split(partial.slice(0, 200)).length - 1).toBe(20);
    expect(r.diagnostics.filter((d) => d.level === "error")).toEqual([]);
  }, 60_000);
});
