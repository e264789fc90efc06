import { describe, expect, it, vi } from "vitest";
import { parsePreset } from "../../src/agents/parse.js";
import { renderSystemPrompt } from "../../src/index.js";
import { BUILTIN, pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Counted, not timed: the real parser, called through.
vi.mock("../../src/agents/parse.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/agents/parse.js")>();
  return { ...real, parsePreset: vi.fn(real.parsePreset) };
});

// fx92c (issue 27, `npm test` in 90 s; speed): every render naming an agent parsed the
// builtin preset's YAML again (a quarter of a claude-code render's CPU from source, and of
// every CLI render naming an agent). The builtin layer's parse is kept by path and exact
// text: a render again parses none of it, a project's preset is still parsed each render
// (a repository's file may change between turns), and a copy is handed out each time, so
// what a render does to its preset (a project's `export` taken out) reaches no other.
describe("hostile repository: a project preset over the builtin one, rendered again", () => {
  it("the builtin preset is parsed once, the project's each render, and the prompt is the same bytes", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/agents/claude-code.yaml":
        'agentName: Forged\nexport:\n  file: forged.md\n  where: here\n  setting: "run {path}"\n  quote: shell\n',
    });
    const options = pinned(root, { agent: "claude-code", projectTrusted: true });
    const parsed = vi.mocked(parsePreset);
    const builtin = `${BUILTIN}agents/claude-code.yaml`;
    const calls = (path: string) => parsed.mock.calls.filter(([, p]) => p === path).length;
    const first = await renderSystemPrompt(options);
    const builtinParses = calls(builtin);
    const projectParses = calls(`${root}/project/.pi/agents/claude-code.yaml`);
    const again = await renderSystemPrompt(options);
    expect(again.text).toBe(first.text);
    expect(again.diagnostics).toEqual(first.diagnostics);
    expect(first.diagnostics.map((d) => d.code)).toContain("preset-project-export");
    expect(calls(builtin)).toBe(builtinParses);
    expect(calls(`${root}/project/.pi/agents/claude-code.yaml`)).toBe(projectParses * 2);
    expect(projectParses).toBe(1);
  });
});
